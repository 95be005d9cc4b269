# frozen_string_literal: true

require_relative "test_helper"
require "socket"

class TestErrors < Minitest::Test
  include CourierTest::Helpers

  def test_a_request_slower_than_its_timeout_raises_timeout_error
    error = assert_raises(Courier::TimeoutError) { client.get("/delay/5000", timeout: 0.3) }
    assert_equal 7, error.code
    assert_kind_of Courier::TransportError, error
    assert_equal "GET", error.request.method
    assert_nil error.response
  end

  def test_the_clients_timeout_applies_to_requests_without_their_own
    assert_raises(Courier::TimeoutError) { client(timeout: 0.3).get("/delay/5000") }
  end

  def test_a_closed_port_raises_connection_error
    port = TCPServer.open("127.0.0.1", 0) { |listener| listener.addr[1] }
    error = assert_raises(Courier::ConnectionError) { Courier::Client.new { |c| c.get("http://127.0.0.1:#{port}/") } }
    assert_equal 6, error.code
    assert_equal "transport", error.stage
  end

  def test_the_hierarchy_mirrors_courier_code
    assert_operator Courier::ConnectionError, :<, Courier::TransportError
    assert_operator Courier::TimeoutError, :<, Courier::TransportError
    assert_operator Courier::TLSError, :<, Courier::TransportError
    assert_operator Courier::TransportError, :<, Courier::RequestError
    assert_operator Courier::InterceptorError, :<, Courier::RequestError
    assert_operator Courier::HTTPError, :<, Courier::Error
    assert_operator Courier::Error, :<, StandardError
    (1..23).each { |code| assert_operator Courier.error_class(code), :<=, Courier::Error }
    assert_equal Courier::Error, Courier.error_class(999)
  end
end
