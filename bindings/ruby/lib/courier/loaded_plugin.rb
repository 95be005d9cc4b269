# frozen_string_literal: true

require "monitor"
require_relative "native_call"
require_relative "callback_guard"

module Courier
  # A plugin loaded into one client: its name and version as it declares them, and #unload to
  # take its interceptors out of the chain. The client frees the handle when it closes, so a
  # LoadedPlugin outliving its client raises ClosedError instead of touching a freed handle.
  class LoadedPlugin
    attr_reader :name, :version

    def initialize(pointer)
      @pointer = pointer
      @lock = Monitor.new
      @name = NativeCall.fetch_string(:courier_plugin_name, pointer)
      @version = NativeCall.fetch_string(:courier_plugin_version, pointer)
    end

    # Removes the plugin's interceptors from its client (PluginError when already unloaded).
    def unload
      @lock.synchronize do
        raise ClosedError.new("the plugin's client is closed", code: 2) unless @pointer

        CallbackGuard.calling_out { NativeCall.invoke(:courier_plugin_unload, @pointer) }
      end
      self
    end

    # Frees the handle (the plugin stays loaded until its client is freed).
    def free
      @lock.synchronize do
        Native.courier_plugin_free(@pointer) if @pointer
        @pointer = nil
      end
    end

    def inspect
      "#<Courier::LoadedPlugin #{name} #{version}>"
    end
  end
end
