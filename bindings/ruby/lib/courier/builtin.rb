# frozen_string_literal: true

require "json"
require_relative "native_call"

module Courier
  # One of Courier's own interceptors (courier_client_add_builtin), run inside the library in its
  # place in the chain among Ruby interceptors and plugins. A subclass names its `KIND` and turns
  # its keyword arguments into the JSON options the header documents; the library checks them,
  # so a bad option raises InvalidRequestError naming it when the client is built.
  class Builtin
    attr_reader :config

    def initialize(name: nil, **config)
      @config = config.compact
      @config[:name] = NativeCall.text(name, "a built-in interceptor's name") if name
    end

    def kind
      self.class::KIND
    end

    def add_to(client_pointer)
      NativeCall.invoke(:courier_client_add_builtin, client_pointer, kind, JSON.generate(config))
    end

    # Seconds (a Numeric) as whole milliseconds for an option named `what`.
    def self.milliseconds(seconds, what)
      return nil if seconds.nil?
      raise InvalidRequestError.new("#{what} must be a number of seconds, not #{seconds.inspect}", code: 1) unless seconds.is_a?(Numeric)

      (seconds * 1000).round
    end

    def inspect
      "#<#{self.class.name} #{config.inspect}>"
    end
  end
end
