# frozen_string_literal: true

require_relative "native_call"
require_relative "native_response"
require_relative "interceptor_bridge"
require_relative "stream_consumer"
require_relative "callback_guard"

module Courier
  # One blocking send, courier_client_send_with, with the GVL released while it runs: the
  # pipeline and every Ruby callback run on this thread, and other Ruby threads go on.
  #
  # The send asks the library's should_cancel every 100 ms and whenever a signal lands on the
  # thread, and says yes when Ruby has an interrupt waiting for it (Thread#raise, Thread#kill,
  # Timeout.timeout): the send ends as cancelled and Ruby then delivers the interrupt, so a send
  # never keeps a thread from being stopped. A signal (Ctrl-C) makes Ruby run its handler inside
  # that check, on the main thread; its exception (Interrupt) cancels the send and is raised here.
  module Sender
    module_function

    # Sends and returns the Response; with a StreamConsumer, the body goes to it and the
    # Response's body is empty. Raises the exception of the library's code otherwise.
    def send(client_pointer, native_request, consumer = nil)
      options = Native.new_struct(Native::SendOptions, :courier_send_options_init)
      options[:should_cancel] = SHOULD_CANCEL
      key = nil
      if consumer
        key = HandleTable::INSTANCE.add(consumer)
        options[:on_data] = StreamConsumer::ON_DATA
        options[:user_data] = FFI::Pointer.new(key)
      end
      response_box = FFI::MemoryPointer.new(:pointer)
      error_box = FFI::MemoryPointer.new(:pointer)
      InterceptorBridge.take_failure
      code = CallbackGuard.calling_out do
        Native.courier_client_send_with(client_pointer, native_request.pointer, options, response_box, error_box)
      end
      HandleTable::INSTANCE.release(key) if key
      signal = CallbackGuard.take_signal
      raise signal if signal
      raise failure(code, error_box.read_pointer, native_request.info, consumer) unless code.zero?

      read_response(response_box.read_pointer, native_request.info)
    end

    def read_response(pointer, request)
      NativeResponse.read(pointer, request: request)
    ensure
      Native.courier_response_free(pointer)
    end

    # The exception to raise: the library's, with a Ruby interceptor's exception as its cause,
    # or the stream block's own exception when the block stopped the transfer.
    def failure(code, error_pointer, request, consumer)
      error = NativeCall.error_from(code, error_pointer, request: request)
      return consumer.failure if consumer&.failure

      cause = InterceptorBridge.take_failure
      return error unless cause

      begin
        raise error, cause: cause
      rescue Error => e
        e
      end
    end

    # Asks Ruby for its interrupts: Thread.pass runs a signal's handler here, whose Interrupt is
    # kept for the sending thread to raise, and a Thread#raise or #kill (deferred by the mask
    # around the send) shows as pending. Either cancels the send.
    def should_cancel
      Thread.pass
      Thread.pending_interrupt? ? 1 : 0
    rescue SignalException => e
      Thread.current[CallbackGuard::SIGNAL_KEY] ||= e
      1
    rescue Exception # rubocop:disable Lint/RescueException -- nothing may escape into C
      1
    end

    SHOULD_CANCEL = FFI::Function.new(:int, [:pointer]) { |_user_data| should_cancel }
  end
end
