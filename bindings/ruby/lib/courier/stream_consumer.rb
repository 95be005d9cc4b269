# frozen_string_literal: true

require_relative "handle_table"
require_relative "callback_guard"

module Courier
  # Hands a streamed body to the block of Client#stream chunk by chunk, on the sending thread,
  # as the library reads it: the library waits while the block runs, so memory stays bounded by
  # one chunk whatever the body's size. The block's exception, or a `break`, stops the transfer;
  # the sending thread re-raises the exception once the library has returned.
  class StreamConsumer
    attr_reader :failure

    def initialize(block)
      @block = block
      @stopped = false
      @failure = nil
    end

    # Whether the block stopped the transfer (raised, or left with break or throw).
    def stopped?
      @stopped
    end

    # Returns 0 to go on, 1 to stop.
    def deliver(chunk)
      outcome = CallbackGuard.run(1, ->(error) { @failure = error }) do
        @block.call(chunk)
        0
      end
      @stopped = true unless outcome.zero?
      outcome
    end

    ON_DATA = FFI::Function.new(:int, %i[pointer pointer size_t]) do |user_data, data, length|
      consumer = HandleTable::INSTANCE[user_data.address]
      consumer ? consumer.deliver(data.read_bytes(length)) : 1
    end
  end
end
