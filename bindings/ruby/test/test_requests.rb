# frozen_string_literal: true

require_relative "test_helper"
require "tempfile"

class TestRequests < Minitest::Test
  include CourierTest::Helpers

  def test_get_sends_query_params_and_headers
    response = client.get("/anything", params: { "lang" => "en", "tag" => %w[a b] }, headers: { "X-Demo" => "yes" })
    assert_equal 200, response.status
    assert_equal({ "lang" => "en", "tag" => %w[a b] }, response.json["args"])
    assert_equal ["yes"], received_headers(response)["x-demo"]
  end

  def test_client_headers_reach_every_request_unless_the_request_sets_its_own
    shared = client(headers: { "X-Team" => "ops", "X-Mode" => "default" })
    seen = received_headers(shared.get("/anything", headers: { "X-Mode" => "override" }))
    assert_equal ["ops"], seen["x-team"]
    assert_equal ["override"], seen["x-mode"]
  end

  def test_response_headers_are_case_insensitive
    response = client.get("/anything")
    assert_equal "application/json", response.headers["content-type"]
    assert_equal response.headers["Content-Type"], response.headers["CONTENT-TYPE"]
    assert response.headers.key?("content-TYPE")
    assert_nil response.headers["x-absent"]
  end

  def test_json_body_is_encoded_and_parsed
    response = client.post("/anything", json: { "name" => "Ada", "tags" => [1, 2] })
    assert_equal({ "name" => "Ada", "tags" => [1, 2] }, response.json["json"])
    assert_equal ["application/json"], received_headers(response)["content-type"]
  end

  def test_form_body_is_url_encoded
    response = client.post("/anything", form: { "title" => "Notes & more", "n" => 1 })
    assert_equal({ "title" => "Notes & more", "n" => "1" }, response.json["form"])
  end

  def test_multipart_sends_fields_data_and_files
    Tempfile.create(["upload", ".txt"]) do |file|
      file.write("file contents")
      file.flush
      response = client.post("/anything", multipart: {
                               "title" => "Notes",
                               "data" => { data: "raw bytes", filename: "raw.bin", content_type: "application/octet-stream" },
                               "file" => Pathname.new(file.path)
                             })
      body = response.json
      assert_equal "Notes", body["form"]["title"]
      assert_equal({ "data" => "raw bytes", "file" => "file contents" }, body["files"])
    end
  end

  def test_raw_body_is_sent_byte_for_byte
    bytes = (0..255).map(&:chr).join.b
    response = client.put("/anything", body: bytes, headers: { "Content-Type" => "application/x-test" })
    assert_equal bytes, response.json["body_base64"].unpack1("m")
    assert_equal ["application/x-test"], received_headers(response)["content-type"]
  end

  def test_every_method_helper_sends_its_method
    %i[get post put patch delete options].each do |method|
      assert_equal method.to_s.upcase, client.public_send(method, "/anything").json["method"]
    end
    head = client.head("/anything")
    assert_equal 200, head.status
    assert_equal "".b, head.body
  end

  def test_base_url_resolves_relative_urls_and_absolute_urls_go_as_given
    nested = client.request(:get, "anything/nested")
    assert_equal "/anything/nested", nested.json["path"]
    absolute = Courier::Client.new { |other| other.get(server["/anything/absolute"]) }
    assert_equal "/anything/absolute", absolute.json["path"]
  end

  def test_response_reports_status_reason_success_and_raise_for_status
    ok = client.get("/status/204")
    assert ok.success?
    assert_equal "No Content", ok.reason
    assert_same ok, ok.raise_for_status
    missing = client.get("/status/404")
    refute missing.success?
    error = assert_raises(Courier::HTTPError) { missing.raise_for_status }
    assert_same missing, error.response
    assert_equal 404, error.status
    assert_equal "GET", error.request.method
  end

  def test_json_of_a_non_json_body_is_a_decoding_error
    response = client.get("/bytes/16")
    assert_raises(Courier::DecodingError) { response.json }
  end

  def test_redirects_are_followed_by_default_and_not_when_disabled
    assert_equal 200, client.get("/redirect/2").status
    not_followed = client(follow_redirects: false).get("/redirect/2")
    assert_includes 300..399, not_followed.status
    assert not_followed.headers["location"]
  end

  def test_too_many_redirects_is_a_typed_error
    error = assert_raises(Courier::TooManyRedirectsError) { client(max_redirects: 1).get("/redirect/3") }
    assert_equal 13, error.code
  end

  def test_gzip_bodies_are_decoded
    assert_equal "/gzip", client.get("/gzip").json["path"]
  end

  def test_block_form_returns_the_block_value_and_closes_the_client
    kept = nil
    status = Courier::Client.new(base_url: server.url) do |made|
      kept = made
      made.get("/get").status
    end
    assert_equal 200, status
    assert kept.closed?
    assert_raises(Courier::ClosedError) { kept.get("/get") }
  end
end
