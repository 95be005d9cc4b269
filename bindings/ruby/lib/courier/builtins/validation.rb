# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # Fails a response whose status (2xx by default) or content type is not acceptable: HTTPError
  # or UnacceptableContentTypeError, carrying the status. `statuses` takes Integers, Ranges and
  # "200-299" strings.
  class Validation < Builtin
    KIND = "validation"

    def initialize(statuses = nil, content_types: nil, name: nil)
      listed = statuses && Array(statuses).map { |status| status.is_a?(Range) ? "#{status.min}-#{status.max}" : status }
      types = content_types.is_a?(Array) ? content_types : content_types&.to_s
      super(name: name, statuses: listed, content_types: types)
    end
  end
end
