# frozen_string_literal: true

require "json"
require_relative "errors"
require_relative "headers"
require_relative "reason_phrases"

module Courier
  # A response: its status and body are plain Ruby data. A response a send received keeps its
  # head (URL and header lines) in the library until #headers or #url first asks for it (see
  # ReceivedHead), since copying the lines out is much of a request's cost and most callers never
  # read them; either reads it from any thread.
  class Response
    attr_reader :status, :body, :request

    def initialize(status:, headers: Headers.new, body: "".b, url: nil, request: nil)
      @status = Integer(status)
      @headers = headers.is_a?(Headers) ? headers : Headers.new(headers)
      @body = body
      @url = url
      @request = request
      @head = nil
    end

    # A response a send received: `head` (a ReceivedHead) gives the URL and header lines on demand.
    def self.received(status, body, head, request)
      response = allocate
      response.send(:receive, status, body, head, request)
      response
    end

    def headers
      @head ? @head.headers : @headers
    end

    # The final URL, after redirects.
    def url
      @head ? @head.url : @url
    end

    # The standard reason phrase of the status ("Not Found"); "" for a status without one.
    def reason
      REASON_PHRASES.fetch(status, "")
    end

    # The body as text in the charset of Content-Type (UTF-8 when it names none).
    def text
      charset = headers["content-type"].to_s[/charset="?([^";]+)/i, 1]
      encoding = begin
        charset ? Encoding.find(charset) : Encoding::UTF_8
      rescue ArgumentError
        Encoding::UTF_8
      end
      body.dup.force_encoding(encoding)
    end

    # The body parsed as JSON; DecodingError when it is not JSON.
    def json
      JSON.parse(text)
    rescue JSON::ParserError => e
      raise DecodingError.new("the body of #{url} is not JSON: #{e.message}", code: 21, request: request, response: self)
    end

    def success?
      (200..299).cover?(status)
    end

    # Returns self for a 1xx, 2xx or 3xx status; HTTPError carrying this response otherwise.
    def raise_for_status
      return self if status < 400

      kind = status < 500 ? "client error" : "server error"
      raise HTTPError.new("#{status} #{reason} (#{kind}) for #{url}", code: 11, request: request, response: self)
    end

    def inspect
      "#<Courier::Response #{status} #{reason}>"
    end

    private

    def receive(status, body, head, request)
      @status = status
      @headers = nil
      @body = body
      @url = nil
      @request = request
      @head = head
    end
  end
end
