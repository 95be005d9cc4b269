# frozen_string_literal: true

require_relative "lib/courier/version"

Gem::Specification.new do |spec|
  spec.name = "courier"
  spec.version = Courier::VERSION
  spec.summary = "Courier's HTTP request pipeline for Ruby, over libcourier.so.1 through ffi"
  spec.description = "A client over Courier's C library: the same pipeline, interceptors and plugins as " \
                     "its Swift, C and Python interfaces, with a Faraday adapter. Plain Ruby: nothing is " \
                     "compiled at install; the library is found at require time."
  spec.authors = ["Courier contributors"]
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb"] + Dir["vendor/libcourier.so.1"] + ["README.md"]
  spec.require_paths = ["lib"]
  spec.add_dependency "ffi", ">= 1.15"
  spec.metadata["rubygems_mfa_required"] = "true"
end
