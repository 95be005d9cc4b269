# frozen_string_literal: true

require "ffi"
require "open3"
require "shellwords"

module Courier
  # Raised when no libcourier.so.1 can be opened; the message lists every place that was tried.
  class LibraryNotFoundError < LoadError; end

  # Finds libcourier.so.1 as the Python binding does (COURIER_LIBRARY, a copy bundled in the gem,
  # the system loader, then pkg-config) and refuses a library of another ABI major, so that a
  # wrong library fails at `require` with one clear message instead of at the first call.
  module Library
    SONAME = "libcourier.so.1"
    ABI_MAJOR = 1
    # Where a gem built with the library inside would carry it.
    BUNDLED = File.expand_path("../../vendor/#{SONAME}", __dir__)
    FIX = "Install the libcourier1 package (`scripts/package-deb.sh` makes it), or build the library " \
          "from a Courier checkout with `scripts/build-libcourier.sh` and set " \
          "COURIER_LIBRARY=/path/to/courier/.build/debug/libcourier.so.1 (or PKG_CONFIG_PATH=" \
          "/path/to/courier/.build/debug/pkgconfig)."

    module_function

    # [description, path or nil, or a lambda giving the path] in the documented order.
    def candidates(environment = ENV)
      explicit = environment["COURIER_LIBRARY"]
      [
        explicit && !explicit.empty? ? ["COURIER_LIBRARY=#{explicit}", explicit] : ["COURIER_LIBRARY (not set)", nil],
        ["the bundled copy #{BUNDLED}", File.exist?(BUNDLED) ? BUNDLED : nil],
        ["#{SONAME} through the system loader", SONAME],
        ["pkg-config courier", -> { pkg_config_path }]
      ]
    end

    def pkg_config_path
      output, status = Open3.capture2e("pkg-config", "--variable=libdir", "courier")
      raise LoadError, (output.strip.empty? ? "pkg-config does not know courier" : output.strip) unless status.success?

      File.join(output.strip, SONAME)
    rescue Errno::ENOENT
      raise LoadError, "pkg-config is not installed"
    end

    # The path of the first candidate that opens and has ABI major 1; LibraryNotFoundError otherwise.
    def locate(environment = ENV)
      tried = []
      candidates(environment).each do |description, target|
        if target.nil?
          tried << "#{description}: not found"
          next
        end
        begin
          path = target.respond_to?(:call) ? target.call : target
          probe = FFI::DynamicLibrary.open(path, FFI::DynamicLibrary::RTLD_LAZY | FFI::DynamicLibrary::RTLD_LOCAL)
          version = FFI::Function.new(:uint32, [], probe.find_function("courier_abi_version")).call
          major = version >> 16
          if major != ABI_MAJOR
            tried << "#{description}: ABI major #{major}, but this gem was written for #{ABI_MAJOR}"
            next
          end
          return path
        rescue LoadError, StandardError => e
          tried << "#{description}: #{e.message}"
        end
      end
      raise LibraryNotFoundError, "courier: cannot load libcourier. Tried, in order:\n  - #{tried.join("\n  - ")}\n#{FIX}"
    end
  end
end
