# frozen_string_literal: true

require_relative "test_helper"

# A received response keeps its head (URL, header lines) in the library until first read.
class TestLazyHead < Minitest::Test
  include CourierTest::Helpers

  def test_head_read_late_is_the_one_the_server_sent
    made = client
    response = made.get("/redirect/2")
    made.get("/get")
    assert_equal "#{server.url}/echo/get", response.url
    assert_equal "application/json", response.headers["content-type"]
    assert_equal response.body.bytesize.to_s, response.headers["Content-Length"]
    assert_same response.headers, response.headers
  end

  def test_head_read_after_the_client_closed
    made = client
    response = made.get("/get")
    made.close
    assert_equal "application/json", response.headers["content-type"]
    assert_equal "#{server.url}/get", response.url
  end

  def test_head_read_from_many_threads_at_once_is_read_once
    10.times do
      response = client.get("/get")
      gate = Queue.new
      readers = Array.new(8) do
        Thread.new do
          gate.pop
          [response.headers, response.url]
        end
      end
      8.times { gate << true }
      results = readers.map(&:value)
      results.each do |headers, url|
        assert_same results[0][0], headers
        assert_equal "#{server.url}/get", url
      end
      assert_equal "application/json", results[0][0]["content-type"]
    end
  end

  def test_head_read_from_another_thread_than_the_sender
    response = Thread.new { client.get("/anything") }.value
    assert_equal "application/json", Thread.new { response.headers["content-type"] }.value
    assert_equal "#{server.url}/anything", response.url
  end

  def test_a_response_made_in_ruby_keeps_its_own_head
    response = Courier::Response.new(status: 201, headers: { "X-A" => "1" }, body: "b", url: "http://x/")
    assert_equal "1", response.headers["x-a"]
    assert_equal "http://x/", response.url
  end

  # Each unread response's handle is queued by its finalizer and freed by a later send: 10,000
  # dropped responses leave memory and descriptors where they were and the queue drained.
  def test_responses_never_read_do_not_leak
    made = client
    500.times { made.get("/get") }
    GC.start
    made.get("/get")
    rss_before = rss_kib
    fds_before = descriptors
    10_000.times do
      response = made.get("/get")
      raise "status #{response.status}" unless response.status == 200
    end
    GC.start
    made.get("/get")
    assert_empty Courier::ReceivedHead::GARBAGE
    assert_operator descriptors - fds_before, :<=, 2
    assert_operator rss_kib - rss_before, :<, 8 * 1024, "RSS grew #{rss_kib - rss_before} KiB over 10,000 unread responses"
  end

  # A process that ends with unread responses, collected or still held, exits cleanly.
  def test_exit_with_unread_responses
    output, status = CourierTest.run_ruby(<<~RUBY)
      require "courier"
      client = Courier::Client.new(base_url: #{server.url.inspect})
      kept = Array.new(50) { client.get("/get") }
      200.times { client.get("/get") }
      GC.start
      puts kept.size
    RUBY
    assert status.success?, output
    assert_equal "50\n", output
  end
end
