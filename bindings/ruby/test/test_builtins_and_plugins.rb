# frozen_string_literal: true

require_relative "test_helper"
require "openssl"
require "tmpdir"

class TestBuiltinsAndPlugins < Minitest::Test
  include CourierTest::Helpers

  def signature(key, method, path, body)
    OpenSSL::HMAC.hexdigest("SHA256", key, "#{method}\n#{path}\n#{body}")
  end

  def test_retry_resends_a_failing_request_until_it_succeeds
    key = "ruby-retry-#{rand(1 << 30)}"
    response = client(interceptors: [Courier::Retry.new(4, backoff: 0.01)]).get("/flaky/#{key}/2")
    assert_equal 200, response.status
  end

  def test_validation_turns_an_unacceptable_status_into_http_error
    error = assert_raises(Courier::HTTPError) { client(interceptors: [Courier::Validation.new]).get("/status/404") }
    assert_equal 404, error.status
    assert_equal "validation", error.stage
  end

  def test_validation_accepts_ranges_and_codes
    made = client(interceptors: [Courier::Validation.new([200..299, 404])])
    assert_equal 404, made.get("/status/404").status
  end

  def test_logging_writes_a_line_per_exchange_to_a_file
    Dir.mktmpdir do |folder|
      log = File.join(folder, "courier.log")
      client(interceptors: [Courier::Logging.new(file: log)]).get("/anything/logged")
      assert_includes File.read(log), "/anything/logged"
    end
  end

  def test_cache_answers_a_fresh_repeat_from_memory
    made = client(interceptors: [Courier::Cache.new])
    path = "/cache/ruby-#{rand(1 << 30)}?cc=max-age%3D60"
    made.get(path)
    assert_match(/hit/, made.get(path).headers["cache-status"])
  end

  def test_a_bad_builtin_option_is_an_invalid_request_error_naming_it
    error = assert_raises(Courier::InvalidRequestError) { client(interceptors: [Courier::Retry.new(-1)]) }
    assert_includes error.message, "max_attempts"
  end

  def test_the_hmac_signer_plugin_signs_requests_and_unloads
    made = client
    plugin = made.load_plugin(File.join(CourierTest.plugins, "hmac_signer.so"), "secret-key")
    assert_equal "hmac-signer", plugin.name
    refute_empty plugin.version
    response = made.post("/anything/signed", body: "payload")
    assert_equal [signature("secret-key", "POST", "/anything/signed", "payload")], received_headers(response)["x-signature"]
    plugin.unload
    assert_empty received_headers(made.get("/anything"))["x-signature"]
    error = assert_raises(Courier::Error) { plugin.unload }
    assert_includes error.message, "not registered"
  end

  def test_plugins_builtins_and_ruby_interceptors_share_one_chain
    seen = []
    before = Class.new { define_method(:on_request) { |exchange| seen << exchange.request.headers["X-Signature"] } }.new
    after = Class.new { define_method(:on_request) { |exchange| seen << exchange.request.headers["X-Signature"] } }.new
    plugin = Courier::Plugin.new(File.join(CourierTest.plugins, "hmac_signer.so"), config: "k")
    made = client(interceptors: [before, plugin, Courier::Validation.new, after])
    made.get("/anything")
    assert_equal [nil, signature("k", "GET", "/anything", "")], seen
  end

  def test_the_memory_cache_plugin_given_by_path_answers_repeats
    made = client(plugins: [[File.join(CourierTest.plugins, "memory_cache.so"), "10"]])
    first = made.get("/anything?n=ruby")
    assert_equal first.body, made.get("/anything?n=ruby").body
  end

  def test_a_missing_plugin_is_a_plugin_error
    assert_raises(Courier::PluginError) { client(plugins: ["./no-such-plugin.so"]) }
    assert_raises(Courier::PluginError) { client(plugins: ["bare-name.so"]) }
  end
end
