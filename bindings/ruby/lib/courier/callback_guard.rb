# frozen_string_literal: true

module Courier
  # Runs Ruby code called back from C so that nothing can unwind through the library's frames:
  # asynchronous interrupts (Thread#raise, Thread#kill, Timeout) are deferred until the C call
  # returns, and the caller turns every exception, `break` or `throw` into a return value
  # (a `return` in `ensure` ends whatever jump was under way).
  module CallbackGuard
    module_function

    # Yields with interrupts deferred; returns the block's value, or `fallback` when the block
    # raised or jumped, after handing the exception (if any) to `on_error`.
    def run(fallback, on_error)
      result = fallback
      begin
        Thread.handle_interrupt(Object => :never) do
          result = yield
        rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may escape into C
          result = fallback
          on_error.call(e)
        end
      rescue Exception # rubocop:disable Lint/RescueException -- on_error itself failed
        result = fallback
      ensure
        return result # rubocop:disable Lint/EnsureReturn -- stops a break or throw at the C boundary
      end
    end
  end
end
