# frozen_string_literal: true

module Courier
  # What was sent, as an exception or a response reports it: the method, the final URL and
  # the header fields the caller gave. Plain data, so it outlives the library's request.
  class Request
    attr_reader :method, :url, :headers

    def initialize(method, url, headers = Headers.new)
      @method = method
      @url = url
      @headers = headers
    end

    def inspect
      "#<Courier::Request #{method} #{url}>"
    end
  end
end
