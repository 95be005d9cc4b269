# frozen_string_literal: true

module Courier
  # Keeps Ruby from unwinding through the library's frames, which would leave its locks held and
  # its per-thread state as if still inside a callback.
  #
  # Asynchronous interrupts (Thread#raise, Thread#kill, Timeout, Ctrl-C's Interrupt) are masked by
  # the Ruby caller around every C call that can call back (#calling_out), not inside the callback:
  # leaving a Thread.handle_interrupt block delivers what it deferred, so a mask opened in the
  # callback would deliver the interrupt while still inside C. The send's should_cancel sees the
  # deferred interrupt and ends the send; the interrupt is delivered once the call has returned.
  # A signal's handler is not deferred: Ruby runs it at the callback's next interrupt check, and
  # its exception (Interrupt) is kept for the sending thread to raise.
  # Inside a callback, #run turns every exception, `break` or `throw` into a return value (a
  # `return` in `ensure` ends whatever jump was under way).
  module CallbackGuard
    module_function

    # Runs a C call that may call back into Ruby with asynchronous interrupts deferred until it returns.
    def calling_out(&block)
      Thread.handle_interrupt(Object => :never, &block)
    end

    SIGNAL_KEY = :courier_signal_in_callback

    # A signal's exception (Ctrl-C's Interrupt) raised inside a callback, where Ruby runs the
    # signal's handler: taken once by the thread that made the C call, which re-raises it after.
    def take_signal
      signal = Thread.current[SIGNAL_KEY]
      Thread.current[SIGNAL_KEY] = nil
      signal
    end

    # Yields (under the caller's #calling_out mask); returns the block's value, or `fallback` when the block
    # raised or jumped, after handing the exception (if any) to `on_error`. A signal's exception
    # (which Ruby may raise at any point here, even where the block has ended) is kept for
    # #take_signal as well.
    def run(fallback, on_error)
      result = fallback
      begin
        result = yield
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may escape into C
        result = fallback
        report(e, on_error)
      ensure
        return result # rubocop:disable Lint/EnsureReturn -- stops a break or throw at the C boundary
      end
    end

    def report(error, on_error)
      Thread.current[SIGNAL_KEY] ||= error if error.is_a?(SignalException)
      on_error.call(error)
    rescue Exception => e # rubocop:disable Lint/RescueException -- on_error failed, or a signal arrived in it
      Thread.current[SIGNAL_KEY] ||= e if e.is_a?(SignalException)
    end
  end
end
