# frozen_string_literal: true

require_relative "native_call"
require_relative "callback_guard"
require_relative "loaded_plugin"

module Courier
  # A C plugin (a shared object built against courier_plugin.h) to load into clients, whose
  # interceptors join a client's chain in its place. The path must contain a slash, as the library
  # requires, so a bare name never loads another file from the system's library path. One Plugin
  # may be given to several clients; each load is a LoadedPlugin.
  class Plugin
    attr_reader :path, :config

    def initialize(path, config: nil)
      @path = NativeCall.text(path.respond_to?(:to_path) ? path.to_path : path, "a plugin's path")
      @config = config.nil? ? nil : NativeCall.text(config, "a plugin's config")
    end

    # Loads the plugin onto the client; PluginError saying why when it cannot be.
    def load_into(client_pointer)
      LoadedPlugin.new(CallbackGuard.calling_out { NativeCall.fetch_pointer(:courier_plugin_load, client_pointer, path, config) })
    end

    def inspect
      "#<Courier::Plugin #{path}>"
    end
  end
end
