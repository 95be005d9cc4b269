# frozen_string_literal: true

require_relative "test_helper"

class TestBadInput < Minitest::Test
  include CourierTest::Helpers

  def assert_invalid(&block)
    error = assert_raises(Courier::InvalidRequestError, &block)
    refute_empty error.message
    error
  end

  def test_urls_that_are_not_urls_are_refused
    assert_invalid { client.get(42) }
    assert_invalid { Courier::Client.new { |c| c.get("not a url") } }
    assert_invalid { client.get("/anything\0") }
  end

  def test_bad_methods_are_refused
    assert_invalid { client.request("GE T", "/get") }
    assert_invalid { client.request(nil, "/get") }
  end

  def test_header_values_with_line_breaks_or_nul_are_refused
    assert_invalid { client.get("/get", headers: { "X-Bad" => "a\r\nInjected: 1" }) }
    assert_invalid { client.get("/get", headers: { "X-Bad" => "a\0b" }) }
    assert_invalid { client.get("/get", headers: { "Bad Name" => "v" }) }
    assert_invalid { client.get("/get", headers: "X-A: 1") }
    assert_invalid { client(headers: { "X-Bad" => "a\nb" }) }
  end

  def test_text_that_is_not_utf8_is_refused
    assert_invalid { client.get("/get", params: { "q" => "\xff\xfe".dup.force_encoding("UTF-8") }) }
  end

  def test_bodies_are_checked
    assert_invalid { client.post("/anything", json: { "a" => 1 }, form: { "b" => 2 }) }
    assert_invalid { client.post("/anything", json: Float::NAN) }
    assert_invalid { client.post("/anything", body: 42) }
    assert_invalid { client.post("/anything", multipart: { "part" => 3 }) }
    assert_invalid { client.post("/anything", multipart: { "part" => { data: "x", unknown: 1 } }) }
    assert_invalid { client.post("/anything", body: Pathname.new("/no/such/file")) }
  end

  def test_options_are_checked
    assert_invalid { client.get("/get", timeout: -1) }
    assert_invalid { client.get("/get", timeout: "soon") }
    assert_invalid { client.get("/get", params: "a=1") }
    assert_invalid { Courier::Client.new(timeout: 0) }
    assert_invalid { Courier::Client.new(follow_redirects: "yes") }
    assert_invalid { Courier::Client.new(verify: 1) }
    assert_invalid { Courier::Client.new(interceptors: Object.new) }
  end

  def test_unknown_keywords_raise_argument_error
    assert_raises(ArgumentError) { client.get("/get", bogus: 1) }
  end

  def test_a_closed_client_raises_closed_error
    made = client
    made.close
    made.close
    assert_raises(Courier::ClosedError) { made.get("/get") }
  end

  def test_the_library_still_works_after_every_refusal
    assert_equal 200, client.get("/get").status
  end
end
