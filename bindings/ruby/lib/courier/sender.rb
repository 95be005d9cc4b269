# frozen_string_literal: true

require_relative "native_call"
require_relative "native_response"
require_relative "received_head"
require_relative "out_parameters"
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

    # Sends the courier_request at `request_pointer` (described by `info`, a Request) and
    # returns the Response; with a StreamConsumer, the body goes to it and the Response's body is
    # empty. Raises the exception of the library's code otherwise. Frees, first, the heads of
    # responses collected unread.
    def send(client_pointer, request_pointer, info, consumer = nil)
      ReceivedHead.free_garbage unless ReceivedHead::GARBAGE.empty?
      out = OutParameters.take.clear
      key = nil
      options = PLAIN_OPTIONS
      if consumer
        key = HandleTable::INSTANCE.add(consumer)
        options = streaming_options(key)
      end
      InterceptorBridge.take_failure
      code = CallbackGuard.calling_out do
        Native.courier_client_send_with(client_pointer, request_pointer, options, out.response, out.error)
      end
      HandleTable::INSTANCE.release(key) if key
      response_pointer = code.zero? ? out.response.read_pointer : nil
      signal = CallbackGuard.take_signal
      if signal
        Native.courier_response_free(response_pointer) if response_pointer
        raise signal
      end
      raise failure(code, out.error.read_pointer, info, consumer) unless code.zero?

      NativeResponse.received(response_pointer, out, info)
    ensure
      out&.give_back
    end

    # The send options of a streamed send: the body goes to the consumer under `key`.
    def streaming_options(key)
      options = Native.new_struct(Native::SendOptions, :courier_send_options_init)
      options[:should_cancel] = SHOULD_CANCEL
      options[:on_data] = StreamConsumer::ON_DATA
      options[:user_data] = FFI::Pointer.new(key)
      options
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

    # The send options of every send that is not streamed, made once: the library only reads them.
    PLAIN_OPTIONS = Native.new_struct(Native::SendOptions, :courier_send_options_init).tap do |options|
      options[:should_cancel] = SHOULD_CANCEL
    end
  end
end
