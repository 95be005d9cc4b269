# frozen_string_literal: true

require_relative "../builtin"

module Courier
  # Answers a server's 401 Digest challenge (RFC 7616) with `user` and `password`.
  class DigestAuth < Builtin
    KIND = "digest_auth"

    def initialize(user, password, name: nil)
      super(name: name, user: NativeCall.text(user, "user"), password: NativeCall.text(password, "password"))
    end
  end
end
