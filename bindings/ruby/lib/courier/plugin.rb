# frozen_string_literal: true

require_relative "native_call"

module Courier
  # A C plugin (a shared object built against courier_plugin.h) whose interceptors join the
  # client's chain in its place. The path must contain a slash, as the library requires, so a
  # bare name never loads another file from the system's library path.
  class Plugin
    attr_reader :path, :config, :name, :version

    def initialize(path, config: nil)
      @path = NativeCall.text(path.respond_to?(:to_path) ? path.to_path : path, "a plugin's path")
      @config = config.nil? ? nil : NativeCall.text(config, "a plugin's config")
    end

    # Loads the plugin onto the client, records its name and version, and frees the handle (the
    # plugin stays registered until the client is freed).
    def add_to(client_pointer)
      out = FFI::MemoryPointer.new(:pointer)
      NativeCall.invoke(:courier_plugin_load, client_pointer, path, config, out)
      handle = out.read_pointer
      begin
        text = FFI::MemoryPointer.new(:pointer)
        NativeCall.invoke(:courier_plugin_name, handle, text)
        @name = NativeCall.read_string(text)
        NativeCall.invoke(:courier_plugin_version, handle, text)
        @version = NativeCall.read_string(text)
      ensure
        Native.courier_plugin_free(handle)
      end
      self
    end

    def inspect
      "#<Courier::Plugin #{path}#{name ? " (#{name} #{version})" : ""}>"
    end
  end
end
