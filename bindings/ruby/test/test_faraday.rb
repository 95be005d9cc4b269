# frozen_string_literal: true

require_relative "test_helper"
require "courier/faraday_adapter"
require "socket"

class TestFaraday < Minitest::Test
  include CourierTest::Helpers

  def connection(**adapter_options, &block)
    Faraday.new(url: server.url) do |builder|
      block&.call(builder)
      builder.adapter :courier, **adapter_options
    end
  end

  def test_faraday_sends_through_courier_with_headers_query_and_body
    response = connection { |f| f.request :url_encoded }.post("/anything?lang=en", { "name" => "Ada" }, "X-Demo" => "yes")
    body = JSON.parse(response.body)
    assert_equal 200, response.status
    assert_equal "OK", response.reason_phrase
    assert_equal "application/json", response.headers["content-type"]
    assert_equal({ "name" => "Ada" }, body["form"])
    assert_equal "en", body["args"]["lang"]
    assert_includes body["header_list"], %w[X-Demo yes]
  end

  def test_courier_interceptors_run_under_faraday
    stamp = Class.new { def on_request(exchange) = exchange.request.headers["X-Courier"] = "1" }.new
    response = connection(interceptors: [stamp]).get("/anything")
    assert_includes JSON.parse(response.body)["header_list"], %w[X-Courier 1]
  end

  def test_redirects_are_left_to_faraday
    assert_includes 300..399, connection.get("/redirect/1").status
  end

  def test_timeouts_and_refused_connections_become_faradays_errors
    assert_raises(Faraday::TimeoutError) { connection.get("/delay/5000") { |request| request.options.timeout = 0.3 } }
    port = TCPServer.open("127.0.0.1", 0) { |listener| listener.addr[1] }
    assert_raises(Faraday::ConnectionFailed) { Faraday.new(url: "http://127.0.0.1:#{port}") { |f| f.adapter :courier }.get("/") }
  end

  def test_on_data_streams_the_body
    total = 0
    connection.get("/stream-bytes/200000") { |request| request.options.on_data = proc { |_chunk, received| total = received } }
    assert_equal 200_000, total
  end

  def test_settings_that_faraday_owns_are_refused_as_adapter_options
    assert_raises(Courier::InvalidRequestError) { connection(verify: false).get("/get") }
  end
end
