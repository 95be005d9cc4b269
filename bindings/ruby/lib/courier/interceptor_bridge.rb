# frozen_string_literal: true

require_relative "native_call"
require_relative "handle_table"
require_relative "exchange"
require_relative "callback_guard"

module Courier
  # Registers Ruby interceptors with a client and holds the C functions the library calls for
  # them. One ffi callback per callback type is made once, here, and lives as long as the
  # process, so a send still running after its client was closed never calls freed code;
  # `user_data` is a key in the HandleTable, released by the library's destroy callback once no
  # send uses the interceptor any more.
  #
  # The callbacks run on the thread that sends (the Ruby thread inside courier_client_send_with,
  # which ffi gives the GVL back to), so a Ruby interceptor needs no locking of its own beyond
  # what sharing it between threads needs.
  module InterceptorBridge
    # Returned to the library when even failing the exchange failed: an unknown action, which
    # the library turns into COURIER_E_INTERCEPTOR naming the interceptor.
    MISBEHAVED = 99
    FAILURE_KEY = :courier_interceptor_failure

    # What a registered interceptor is: the Ruby object and the name the library reports it by.
    Entry = Struct.new(:interceptor, :name)

    module_function

    # Appends `interceptor` (an object with on_request and/or on_response) to the client's chain.
    def add(client_pointer, interceptor)
      wants_request = interceptor.respond_to?(:on_request)
      wants_response = interceptor.respond_to?(:on_response)
      unless wants_request || wants_response
        raise InvalidRequestError.new("#{interceptor.inspect} is no interceptor: it has neither on_request nor on_response", code: 1)
      end

      name = interceptor_name(interceptor)
      key = HandleTable::INSTANCE.add(Entry.new(interceptor, name))
      struct = Native.new_struct(Native::Interceptor, :courier_interceptor_init)
      name_memory = FFI::MemoryPointer.from_string(name)
      struct[:name] = name_memory
      struct[:on_request] = ON_REQUEST if wants_request
      struct[:on_response] = ON_RESPONSE if wants_response
      struct[:user_data] = FFI::Pointer.new(key)
      struct[:destroy] = DESTROY
      begin
        NativeCall.invoke(:courier_client_add_interceptor, client_pointer, struct.pointer)
      rescue StandardError
        HandleTable::INSTANCE.release(key)
        raise
      end
      name
    end

    def interceptor_name(interceptor)
      name = interceptor.respond_to?(:name) && !interceptor.is_a?(Module) ? interceptor.name : interceptor.class.name
      NativeCall.text(name || "ruby-interceptor", "an interceptor's name")
    end

    # Runs one callback: the interceptor's method with a live Exchange, then the action it chose.
    def dispatch(phase, user_data, exchange_pointer)
      entry = nil
      failed = false
      action = CallbackGuard.run(MISBEHAVED, ->(error) { failed = record_failure(exchange_pointer, error) }) do
        entry = HandleTable::INSTANCE[user_data.address]
        raise ClosedError.new("interceptor #{user_data.address} was released", code: 2) unless entry

        exchange = Exchange.new(exchange_pointer, phase)
        begin
          entry.interceptor.public_send(phase, exchange)
        ensure
          exchange.close
        end
        exchange.action
      end
      action == MISBEHAVED && failed ? Exchange::FAIL : action
    end

    # A Ruby exception in a callback fails the send with COURIER_E_INTERCEPTOR naming it; the
    # sending thread picks the exception up as the cause of the InterceptorError it raises.
    # Returns whether the library took the failure.
    def record_failure(exchange_pointer, error)
      Thread.current[FAILURE_KEY] = error
      message = "raised #{error.class}: #{error.message}".scrub.delete("\0")
      box = FFI::MemoryPointer.new(:pointer)
      code = Native.courier_exchange_fail(exchange_pointer, 14, message, box)
      Native.courier_error_free(box.read_pointer) unless code.zero?
      code.zero?
    end

    # The exception a Ruby interceptor raised in the send that just failed on this thread, taken once.
    def take_failure
      failure = Thread.current[FAILURE_KEY]
      Thread.current[FAILURE_KEY] = nil
      failure
    end

    ON_REQUEST = FFI::Function.new(:int, %i[pointer pointer]) do |user_data, exchange|
      dispatch(:on_request, user_data, exchange)
    end
    ON_RESPONSE = FFI::Function.new(:int, %i[pointer pointer]) do |user_data, exchange|
      dispatch(:on_response, user_data, exchange)
    end
    DESTROY = FFI::Function.new(:void, [:pointer]) do |user_data|
      CallbackGuard.run(nil, ->(_error) {}) { HandleTable::INSTANCE.release(user_data.address) }
    end
  end
end
