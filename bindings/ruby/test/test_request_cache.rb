# frozen_string_literal: true

require_relative "test_helper"

# A send with only a method and a URL reuses a courier_request built once (RequestCache).
class TestRequestCache < Minitest::Test
  include CourierTest::Helpers

  def cache(made)
    made.instance_variable_get(:@handle).requests
  end

  def test_plain_sends_to_one_url_reuse_one_request
    made = client
    3.times { assert_equal 200, made.get("/get").status }
    made.request(:get, "/get")
    made.get("/anything")
    assert_equal 2, cache(made).size
  end

  def test_the_cached_request_describes_the_send
    made = client
    2.times do
      response = made.get("/anything")
      assert_equal "GET", response.request.method
      assert_equal "#{server.url}/anything", response.request.url
      assert response.request.url.frozen?
    end
    assert_equal "HEAD", made.head("/anything").request.method
  end

  # An interceptor edits the send's copy of the request, never the cached one.
  def test_interceptor_changes_do_not_stick_to_the_cached_request
    count = 0
    adder = Class.new do
      define_method(:on_request) { |exchange| exchange.request.headers.add("X-N", (count += 1).to_s) }
    end
    made = client(interceptors: [adder.new])
    (1..3).each do |n|
      assert_equal [n.to_s], received_headers(made.get("/anything"))["x-n"]
    end
  end

  def test_params_and_headers_do_not_leak_into_plain_sends
    made = client
    assert_equal "#{server.url}/anything", made.get("/anything").json["url"]
    with = made.get("/anything", params: { "a" => "1" }, headers: { "X-Once" => "1" })
    assert_equal "#{server.url}/anything?a=1", with.json["url"]
    assert_equal ["1"], received_headers(with)["x-once"]
    without = made.get("/anything")
    assert_equal "#{server.url}/anything", without.json["url"]
    assert_nil received_headers(without).fetch("x-once", nil)
    assert_equal "#{server.url}/anything?a=2", made.get("/anything", params: { "a" => "2" }).json["url"]
  end

  # The cache belongs to the client, so each client's default headers go with its sends.
  def test_clients_with_other_default_headers_send_their_own
    first = client(headers: { "X-Client" => "first" })
    second = client(headers: { "X-Client" => "second" })
    2.times do
      assert_equal ["first"], received_headers(first.get("/anything"))["x-client"]
      assert_equal ["second"], received_headers(second.get("/anything"))["x-client"]
    end
  end

  def test_a_mutated_url_string_is_a_new_key
    made = client
    url = +"/anything/a"
    assert_equal "#{server.url}/anything/a", made.get(url).json["url"]
    url.replace("/anything/b")
    assert_equal "#{server.url}/anything/b", made.get(url).json["url"]
  end

  # Threads sending one URL together each hold their own request; each send carries only the
  # header its own thread's interceptor call added.
  def test_threads_sending_one_url_do_not_share_a_request
    tagger = Class.new do
      def on_request(exchange)
        exchange.request.headers.add("X-Thread", Thread.current[:tag])
      end
    end
    made = client(interceptors: [tagger.new])
    threads = Array.new(4) do |n|
      Thread.new do
        Thread.current[:tag] = "t#{n}"
        Array.new(100) { received_headers(made.get("/anything"))["x-thread"] }
      end
    end
    threads.each_with_index do |thread, n|
      thread.value.each { |seen| assert_equal ["t#{n}"], seen }
    end
    assert_operator cache(made).size, :<=, Courier::RequestCache::PER_KEY
  end

  def test_bad_input_is_refused_and_not_cached
    made = client
    assert_raises(Courier::InvalidRequestError) { made.get("/anything\0") }
    assert_equal 0, cache(made).size
  end

  def test_closing_the_client_frees_the_cache
    made = client
    made.get("/get")
    made.get("/anything")
    assert_equal 2, cache(made).size
    made.close
    assert_equal 0, cache(made).size
    assert_raises(Courier::ClosedError) { made.get("/get") }
    assert_equal 0, cache(made).size
  end

  # A send under way when the client closes gives its request back to a closed cache, which frees it.
  def test_a_request_given_back_after_close_is_freed
    made = client
    sending = Thread.new do
      made.get("/delay/300")
    rescue Courier::Error
      nil
    end
    sleep 0.1
    made.close
    sending.join
    assert_equal 0, cache(made).size
  end

  def test_at_most_keys_urls_are_kept
    made = client
    (Courier::RequestCache::KEYS + 5).times { |n| made.get("/anything/#{n}") }
    assert_equal Courier::RequestCache::KEYS, cache(made).size
    assert_equal "#{server.url}/anything/0", made.get("/anything/0").json["url"]
  end
end
