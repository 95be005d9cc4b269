# frozen_string_literal: true

require_relative "test_helper"

class TestStreaming < Minitest::Test
  include CourierTest::Helpers

  def test_stream_yields_the_whole_body_in_chunks_and_returns_the_head
    total = 0
    chunks = 0
    response = client.stream(:get, "/stream-bytes/300000") do |chunk|
      assert_equal Encoding::BINARY, chunk.encoding
      total += chunk.bytesize
      chunks += 1
    end
    assert_equal 300_000, total
    assert_operator chunks, :>, 1
    assert_equal 200, response.status
    assert_equal "".b, response.body
  end

  def test_a_large_body_streams_in_bounded_chunks
    largest = 0
    total = 0
    client.stream(:get, "/bytes/#{32 * 1024 * 1024}") do |chunk|
      largest = chunk.bytesize if chunk.bytesize > largest
      total += chunk.bytesize
    end
    assert_equal 32 * 1024 * 1024, total
    assert_operator largest, :<=, 1024 * 1024, "a chunk should be a transport buffer, not the body"
  end

  def test_break_in_the_block_stops_the_transfer_and_returns_nil
    seen = 0
    result = client.stream(:get, "/stream-bytes/1000000") do |chunk|
      seen += chunk.bytesize
      break
    end
    assert_nil result
    assert_operator seen, :<, 1_000_000
    assert_equal 200, client.get("/get").status, "the client still works after a stopped stream"
  end

  def test_an_exception_in_the_block_stops_the_transfer_and_is_raised
    error = assert_raises(KeyError) do
      client.stream(:get, "/stream-bytes/1000000") { |_chunk| raise KeyError, "stop here" }
    end
    assert_equal "stop here", error.message
  end

  def test_stream_without_a_block_is_refused
    assert_raises(Courier::InvalidRequestError) { client.stream(:get, "/get") }
  end
end
