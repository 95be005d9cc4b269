# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # One line per exchange (method, redacted URL, status, time), written by the library to a file
  # (`file:` a path) or a descriptor (`file:` an Integer or an IO; standard error by default).
  class Logging < Builtin
    KIND = "logging"

    def initialize(level = nil, file: nil, curl_command: nil, max_body_bytes: nil, redact_headers: nil,
                   redact_query: nil, name: nil)
      target = case file
               when nil then {}
               when Integer then { fd: file }
               when IO then { fd: file.fileno }
               else { path: NativeCall.text(file.respond_to?(:to_path) ? file.to_path : file, "file:") }
               end
      super(name: name, level: level&.to_s, curl_command: curl_command, max_body_bytes: max_body_bytes,
            redact_headers: redact_headers, redact_query: redact_query, **target)
    end
  end
end
