# frozen_string_literal: true

require_relative "test_helper"

class TestResources < Minitest::Test
  include CourierTest::Helpers

  # Each send's native request, response and error are freed, its handle-table entries released
  # and its connection reused: 10,000 sends leave memory, descriptors and the table where they were.
  def test_ten_thousand_requests_grow_neither_memory_nor_descriptors
    made = client(interceptors: [Class.new { def on_request(exchange) = exchange.request.headers["X-N"] = "1" }.new])
    500.times { made.get("/get") }
    GC.start
    rss_before = rss_kib
    fds_before = descriptors
    table_before = Courier::HandleTable::INSTANCE.size
    10_000.times do |n|
      response = n.even? ? made.get("/get") : made.stream(:get, "/bytes/64") { |_chunk| nil }
      raise "status #{response.status}" unless response.status == 200
    end
    GC.start
    assert_operator descriptors - fds_before, :<=, 2
    assert_equal table_before, Courier::HandleTable::INSTANCE.size
    assert_operator rss_kib - rss_before, :<, 8 * 1024, "RSS grew #{rss_kib - rss_before} KiB over 10,000 requests"
  end

  def test_failed_sends_free_their_errors
    made = client
    200.times { made.get("/get") rescue nil } # rubocop:disable Style/RescueModifier
    GC.start
    rss_before = rss_kib
    2_000.times { assert_raises(Courier::InvalidRequestError) { made.get("/get", headers: { "X" => "a\nb" }) } }
    2_000.times { made.get("/status/500") }
    GC.start
    assert_operator rss_kib - rss_before, :<, 8 * 1024
  end
end
