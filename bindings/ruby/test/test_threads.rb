# frozen_string_literal: true

require_relative "test_helper"
require "timeout"

class TestThreads < Minitest::Test
  include CourierTest::Helpers

  # Counts the sends that pass through it, from any thread.
  class Counter
    attr_reader :count

    def initialize
      @count = 0
      @lock = Mutex.new
    end

    def on_request(exchange)
      @lock.synchronize { @count += 1 }
      exchange.request.headers["X-Thread"] = Thread.current.object_id.to_s
    end
  end

  def test_threads_sharing_a_client_each_get_their_own_responses
    counter = Counter.new
    shared = client(interceptors: [counter])
    results = Array.new(8) do |index|
      Thread.new do
        Array.new(40) do |n|
          response = shared.get("/anything", params: { "thread" => index, "n" => n })
          [response.status, response.json["args"]["thread"], response.json["args"]["n"]]
        end
      end
    end.map(&:value)
    results.each_with_index do |sends, index|
      assert_equal(Array.new(40) { |n| [200, index.to_s, n.to_s] }, sends)
    end
    assert_equal 320, counter.count
  end

  def test_other_threads_run_while_a_send_waits
    sender = Thread.new { client.get("/delay/800").status }
    spins = 0
    spins += 1 while sender.alive?
    assert_equal 200, sender.value
    assert_operator spins, :>, 1000, "the GVL should be released during a send"
  end

  def test_thread_kill_stops_a_send_in_flight
    made = client
    started = Queue.new
    sender = Thread.new do
      started << true
      made.get("/delay/30000")
    end
    started.pop
    sleep 0.2
    sender.kill
    refute_nil sender.join(20), "a killed thread should leave its send"
    assert_equal 200, made.get("/get").status
  end

  def test_timeout_timeout_interrupts_a_send
    assert_raises(Timeout::Error) { Timeout.timeout(0.3) { client.get("/delay/30000") } }
  end

  def test_thread_raise_reaches_a_thread_inside_a_send
    made = client
    sender = Thread.new do
      made.get("/delay/30000")
      :finished
    rescue IOError => e
      e.message
    end
    sleep 0.2
    sender.raise(IOError, "wake up")
    assert_equal "wake up", sender.value
  end

  def test_a_client_closed_while_another_thread_sends_lets_that_send_finish
    made = Courier::Client.new(base_url: server.url)
    sender = Thread.new { made.get("/delay/300").status }
    sleep 0.1
    made.close
    outcome = begin
      sender.value
    rescue Courier::ClosedError
      :closed_before_the_send_started
    end
    assert_includes [200, :closed_before_the_send_started], outcome
  end

  def test_ruby_callbacks_run_on_the_sending_thread_also_when_a_builtin_retries
    threads = []
    recorder = Class.new do
      define_method(:on_request) { |_exchange| threads << Thread.current }
      define_method(:on_response) { |_exchange| threads << Thread.current }
    end.new
    made = client(interceptors: [Courier::Retry.new(3, backoff: 0.01), recorder])
    assert_equal 200, made.get("/flaky/ruby-thread-#{rand(1 << 30)}/1").status
    received = []
    made.stream(:get, "/stream-bytes/50000") { |_chunk| received << Thread.current }
    assert_equal 6, threads.size, "two passes of the retried send and one of the stream, each on the way in and out"
    assert_equal [Thread.current], (threads + received).uniq
  end
end
