# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # A private HTTP cache (RFC 9111): in memory, or in files under `directory` shared with other
  # processes. Every response through it says what happened in its Cache-Status header.
  class Cache < Builtin
    KIND = "cache"

    def initialize(directory = nil, max_bytes: nil, max_entry_bytes: nil, name: nil)
      folder = directory && NativeCall.text(directory.respond_to?(:to_path) ? directory.to_path : directory, "directory")
      super(name: name, directory: folder, max_bytes: max_bytes, max_entry_bytes: max_entry_bytes)
    end
  end
end
