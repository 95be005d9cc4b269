# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # At most `max_requests` sends in flight through it, and `max_requests_per_host` to one host.
  class ConcurrencyLimit < Builtin
    KIND = "concurrency_limit"

    def initialize(max_requests = nil, max_requests_per_host: nil, name: nil)
      super(name: name, max_requests: max_requests, max_requests_per_host: max_requests_per_host)
    end
  end
end
