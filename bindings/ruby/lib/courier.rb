# frozen_string_literal: true

# Courier's Ruby binding: a client over the C library libcourier.so.1 through ffi, with the same
# pipeline, interceptors and plugins as Courier's Swift, C and Python interfaces.
require_relative "courier/version"
require_relative "courier/library"
require_relative "courier/native"
require_relative "courier/errors"
require_relative "courier/headers"
require_relative "courier/request"
require_relative "courier/response"
require_relative "courier/exchange"
require_relative "courier/builtin"
require_relative "courier/builtins/retry"
require_relative "courier/builtins/logging"
require_relative "courier/builtins/validation"
require_relative "courier/builtins/concurrency_limit"
require_relative "courier/builtins/digest_auth"
require_relative "courier/builtins/cache"
require_relative "courier/plugin"
require_relative "courier/client"

module Courier
  # The loaded library's release version, such as "0.2.0".
  def self.library_version
    Native.courier_version
  end

  # The path the library was loaded from.
  def self.library_path
    Native::LIBRARY_PATH
  end
end
