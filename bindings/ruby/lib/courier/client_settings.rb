# frozen_string_literal: true

require_relative "native_call"

module Courier
  # Client.new's keyword arguments as a courier_client_options struct, each checked first so a
  # bad value is an InvalidRequestError naming it. Keeps the memory of the strings it points to
  # alive for as long as the struct is (the library copies them in courier_client_new).
  class ClientSettings
    attr_reader :struct

    def initialize(headers:, timeout:, connect_timeout:, follow_redirects:, max_redirects:, proxy:, verify:, user_agent:)
      @memory = []
      @struct = Native.new_struct(Native::ClientOptions, :courier_client_options_init)
      @struct[:timeout_ms] = timeout.nil? ? 0 : milliseconds(timeout, "timeout:")
      @struct[:connect_timeout_ms] = milliseconds(connect_timeout, "connect_timeout:") unless connect_timeout.nil?
      @struct[:follow_redirects] = flag(follow_redirects, "follow_redirects:")
      @struct[:max_redirects] = count(max_redirects, "max_redirects:") unless max_redirects.nil?
      @struct[:proxy] = string(proxy, "proxy:") unless proxy.nil?
      @struct[:user_agent] = string(user_agent, "user_agent:") unless user_agent.nil?
      apply_verify(verify)
      @struct[:default_headers] = header_array(headers) unless headers.nil?
    end

    private

    def milliseconds(seconds, what)
      unless seconds.is_a?(Numeric) && seconds.positive? && seconds.finite?
        raise InvalidRequestError.new("#{what} must be a positive number of seconds, not #{seconds.inspect}", code: 1)
      end

      [(seconds * 1000).ceil, 1].max
    end

    def flag(value, what)
      raise InvalidRequestError.new("#{what} must be true or false, not #{value.inspect}", code: 1) unless [true, false].include?(value)

      value ? 1 : 0
    end

    def count(value, what)
      raise InvalidRequestError.new("#{what} must be an Integer >= 0, not #{value.inspect}", code: 1) unless value.is_a?(Integer) && value >= 0

      value
    end

    def string(value, what)
      memory = FFI::MemoryPointer.from_string(NativeCall.text(value, what))
      @memory << memory
      memory
    end

    # verify: true checks certificates, false does not (tests only), a String is a CA file to trust.
    def apply_verify(verify)
      case verify
      when true then @struct[:verify_tls] = 1
      when false then @struct[:verify_tls] = 0
      when String then @struct[:ca_file] = string(verify, "verify:")
      else raise InvalidRequestError.new("verify: must be true, false or a CA file's path, not #{verify.inspect}", code: 1)
      end
    end

    # A NULL-terminated array of "Name: value" strings.
    def header_array(headers)
      unless headers.is_a?(Hash) || headers.is_a?(Headers)
        raise InvalidRequestError.new("headers: must be a Hash, not #{headers.class}", code: 1)
      end

      lines = headers.each_with_object([]) do |(name, value), all|
        name_text = NativeCall.text(name, "a header name")
        if name_text.empty? || name_text.match?(/[\s:]/)
          raise InvalidRequestError.new("#{name_text.inspect} is not a header name", code: 1)
        end

        Array(value).each do |one|
          all << string("#{name_text}: #{NativeCall.text(one, "the value of header #{name_text.inspect}")}", "headers:")
        end
      end
      array = FFI::MemoryPointer.new(:pointer, lines.size + 1)
      array.write_array_of_pointer(lines + [FFI::Pointer::NULL])
      @memory << array
      array
    end
  end
end
