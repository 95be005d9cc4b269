# frozen_string_literal: true

module Courier
  # The gem's version, which follows the library's release.
  VERSION = "0.2.0"
end
