# frozen_string_literal: true

require_relative "test_helper"

class TestInterceptors < Minitest::Test
  include CourierTest::Helpers

  # Records every call, for tests that check order and attempts.
  class Recorder
    attr_reader :name, :calls

    def initialize(name, calls)
      @name = name
      @calls = calls
    end

    def on_request(exchange)
      @calls << [name, :request, exchange.attempt]
    end

    def on_response(exchange)
      @calls << [name, :response, exchange.response.status]
    end
  end

  def test_on_request_edits_the_request_before_it_is_sent
    stamp = Class.new { def on_request(exchange) = exchange.request.headers["X-Stamp"] = "ruby" }.new
    response = client(interceptors: [stamp]).get("/anything")
    assert_equal ["ruby"], received_headers(response)["x-stamp"]
  end

  def test_on_request_reads_and_changes_method_url_and_query
    rewrite = Class.new do
      def on_request(exchange)
        exchange.request.method = "PATCH"
        exchange.request.url = exchange.request.url.sub("/before", "/after")
        exchange.request.add_query("added", "1")
      end
    end.new
    body = client(interceptors: [rewrite]).get("/anything/before").json
    assert_equal "PATCH", body["method"]
    assert_equal "/anything/after", body["path"]
    assert_equal "1", body["args"]["added"]
  end

  def test_on_response_edits_the_response
    edit = Class.new do
      def on_response(exchange)
        exchange.response.status = 299
        exchange.response.headers["X-Seen"] = exchange.response.json["path"]
        exchange.response.body = "replaced"
      end
    end.new
    response = client(interceptors: [edit]).get("/anything")
    assert_equal [299, "/anything", "replaced"], [response.status, response.headers["x-seen"], response.body]
  end

  def test_respond_answers_without_reaching_the_server
    answer = Class.new do
      def on_request(exchange)
        exchange.respond(status: 203, headers: { "X-From" => "interceptor" }, body: "local")
      end
    end.new
    response = client(interceptors: [answer]).get("http://127.0.0.1:9/unreachable")
    assert_equal [203, "interceptor", "local"], [response.status, response.headers["x-from"], response.body]
  end

  def test_fail_fails_the_send_with_the_named_code
    refuse = Class.new { def on_response(exchange) = exchange.fail("no thanks", code: :unacceptable_status) }.new
    error = assert_raises(Courier::HTTPError) { client(interceptors: [refuse]).get("/get") }
    assert_equal 11, error.code
    assert_includes error.message, "no thanks"
    assert_equal 200, error.status
  end

  def test_retry_sends_the_request_again
    calls = []
    again = Class.new do
      define_method(:on_response) do |exchange|
        calls << exchange.attempt
        exchange.retry if exchange.attempt == 1
      end
    end.new
    assert_equal 200, client(interceptors: [again]).get("/get").status
    assert_equal [1, 2], calls
  end

  def test_an_exception_fails_the_send_with_interceptor_error_and_keeps_the_cause
    broken = Class.new do
      def self.name = "Broken"
      def on_request(_exchange) = raise(ArgumentError, "bad state")
    end.new
    error = assert_raises(Courier::InterceptorError) { client(interceptors: [broken]).get("/get") }
    assert_equal 14, error.code
    assert_equal "Broken", error.stage
    assert_kind_of ArgumentError, error.cause
    assert_includes error.message, "bad state"
  end

  def test_throw_or_non_standard_errors_in_a_callback_fail_the_send_instead_of_unwinding
    thrower = Class.new { def on_request(_exchange) = throw(:away) }.new
    exiter = Class.new { def on_request(_exchange) = raise(NoMemoryError, "pretend") }.new
    assert_raises(Courier::InterceptorError) { client(interceptors: [thrower]).get("/get") }
    assert_raises(Courier::InterceptorError) { client(interceptors: [exiter]).get("/get") }
  end

  def test_an_exchange_used_after_its_callback_raises_closed_error
    kept = []
    keeper = Class.new { define_method(:on_request) { |exchange| kept << exchange } }.new
    client(interceptors: [keeper]).get("/get")
    assert_raises(Courier::ClosedError) { kept.first.request.url }
    assert_raises(Courier::ClosedError) { kept.first.attempt }
  end

  def test_the_response_is_not_there_in_on_request
    early = Class.new { def on_request(exchange) = exchange.response.status }.new
    error = assert_raises(Courier::InterceptorError) { client(interceptors: [early]).get("/get") }
    assert_kind_of Courier::Error, error.cause
  end

  def test_interceptors_run_in_chain_order_requests_down_and_responses_up
    calls = []
    chain = [Recorder.new("outer", calls), Recorder.new("inner", calls)]
    client(interceptors: chain).get("/get")
    assert_equal [["outer", :request, 1], ["inner", :request, 1], ["inner", :response, 200], ["outer", :response, 200]], calls
  end

  def test_an_object_without_callbacks_is_refused
    assert_raises(Courier::InvalidRequestError) { client(interceptors: [Object.new]) }
  end

  def test_interceptors_added_later_join_the_chain
    made = client
    made.add(Class.new { def on_request(exchange) = exchange.request.headers["X-Late"] = "1" }.new)
    assert_equal ["1"], received_headers(made.get("/anything"))["x-late"]
  end

  def test_a_removed_interceptor_no_longer_runs_and_is_released
    calls = []
    made = client(interceptors: [Recorder.new("removable", calls), Courier::Validation.new])
    made.get("/get")
    before = Courier::HandleTable::INSTANCE.size
    made.remove_interceptor("removable")
    made.remove_interceptor("validation")
    made.get("/status/404")
    assert_equal 2, calls.size
    assert_equal before - 1, Courier::HandleTable::INSTANCE.size
    assert_raises(Courier::Error) { made.remove_interceptor("removable") }
  end

  def test_released_interceptors_leave_the_handle_table
    before = Courier::HandleTable::INSTANCE.size
    5.times do
      Courier::Client.new(base_url: server.url, interceptors: [Recorder.new("r", [])]) { |made| made.get("/get") }
    end
    assert_equal before, Courier::HandleTable::INSTANCE.size
  end
end
