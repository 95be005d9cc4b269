# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # Resends on a retryable status or error with exponential backoff and jitter (the library's
  # "retry"). Times are in seconds.
  class Retry < Builtin
    KIND = "retry"

    def initialize(max_attempts = nil, backoff: nil, max_backoff: nil, multiplier: nil, jitter: nil, statuses: nil,
                   errors: nil, methods: nil, honour_retry_after: nil, idempotency_key: nil, budget: nil, name: nil)
      super(name: name, max_attempts: max_attempts, initial_backoff_ms: Builtin.milliseconds(backoff, "backoff:"),
            max_backoff_ms: Builtin.milliseconds(max_backoff, "max_backoff:"), backoff_multiplier: multiplier,
            jitter: jitter&.to_s, statuses: statuses, errors: errors&.map(&:to_s), methods: methods&.map { |m| m.to_s.upcase },
            honour_retry_after: honour_retry_after, add_idempotency_key: idempotency_key, budget: budget)
    end
  end
end
