# frozen_string_literal: true

require "json"
require "pathname"
require "uri"
require_relative "native_call"
require_relative "headers"
require_relative "request"

module Courier
  # Builds the library's courier_request from Client#request's arguments, checking each input
  # first so that bad input is an InvalidRequestError naming it, never a crash or a silent drop.
  # The caller owns the result and frees it with #free.
  class NativeRequest
    BODY_KINDS = %i[json form body multipart].freeze

    attr_reader :pointer, :info

    def initialize(method, url, base_url: nil, params: nil, headers: nil, json: nil, form: nil, body: nil,
                   multipart: nil, timeout: nil)
      given = { json: json, form: form, body: body, multipart: multipart }.compact
      if given.size > 1
        raise InvalidRequestError.new("give one body of json:, form:, body: and multipart:, not #{given.keys.join(" and ")}",
                                      code: 1)
      end

      method_name = NativeCall.text(method, "the method").upcase
      url = url.to_s if url.is_a?(URI::Generic)
      raise InvalidRequestError.new("the URL must be a String or a URI, not #{url.class}", code: 1) unless url.is_a?(String)

      url_text = NativeCall.text(url, "the URL")
      @pointer = create(method_name, url_text, base_url)
      begin
        add_params(params) if params
        header_lines = add_headers(headers) if headers
        add_body(given.keys.first, given.values.first) unless given.empty?
        set_timeout(timeout) unless timeout.nil?
        @info = Request.new(method_name, current_url, Headers.new(header_lines || []))
      rescue StandardError
        free
        raise
      end
    end

    def free
      Native.courier_request_free(@pointer) if @pointer
      @pointer = nil
    end

    private

    def create(method_name, url_text, base_url)
      if base_url && url_text !~ %r{\A[a-zA-Z][a-zA-Z0-9+.-]*://}
        NativeCall.fetch_pointer(:courier_request_new_endpoint, method_name, base_url, url_text)
      else
        NativeCall.fetch_pointer(:courier_request_new, method_name, url_text)
      end
    end

    def current_url
      NativeCall.fetch_string(:courier_request_url, @pointer)
    end

    # Pairs from a Hash or an Array of pairs; anything else is refused, naming `what`.
    def pairs(value, what)
      unless value.is_a?(Hash) || (value.is_a?(Array) && value.all? { |pair| pair.is_a?(Array) && pair.size == 2 })
        raise InvalidRequestError.new("#{what} must be a Hash or an Array of [name, value] pairs, not #{value.class}",
                                      code: 1)
      end

      value.to_a
    end

    def add_params(params)
      pairs(params, "params:").each do |name, value|
        name_text = NativeCall.text(name, "a query name")
        (value.is_a?(Array) ? value : [value]).each do |one|
          one_text = one.nil? ? nil : NativeCall.text(one, "the value of query item #{name_text.inspect}")
          NativeCall.invoke(:courier_request_add_query, @pointer, name_text, one_text)
        end
      end
    end

    def add_headers(headers)
      lines = headers.is_a?(Headers) ? headers.to_a : pairs(headers, "headers:")
      lines.flat_map do |name, value|
        name_text = NativeCall.text(name, "a header name")
        (value.is_a?(Array) ? value : [value]).map do |one|
          one_text = NativeCall.text(one, "the value of header #{name_text.inspect}")
          NativeCall.invoke(:courier_request_add_header, @pointer, name_text, one_text)
          [name_text, one_text]
        end
      end
    end

    def add_body(kind, value)
      case kind
      when :json then add_json(value)
      when :form
        pairs(value, "form:").each do |name, field|
          NativeCall.invoke(:courier_request_add_form_field, @pointer, NativeCall.text(name, "a form field name"),
                            NativeCall.text(field, "the value of form field #{name.to_s.inspect}"))
        end
      when :body then add_raw_body(value)
      when :multipart then pairs(value, "multipart:").each { |name, part| add_part(NativeCall.text(name, "a part name"), part) }
      end
    end

    def add_json(value)
      text = JSON.generate(value)
      NativeCall.invoke(:courier_request_set_body_json, @pointer, NativeCall.text(text, "the JSON body"))
    rescue JSON::GeneratorError, JSON::NestingError => e
      raise InvalidRequestError.new("json: cannot be encoded as JSON: #{e.message}", code: 4)
    end

    def add_raw_body(value)
      case value
      when String
        bytes = FFI::MemoryPointer.from_string(value)
        NativeCall.invoke(:courier_request_set_body_bytes, @pointer, bytes, value.bytesize, nil)
      when Pathname, File
        NativeCall.invoke(:courier_request_set_body_file, @pointer, NativeCall.text(value.to_path, "the body's path"), nil)
      else
        raise InvalidRequestError.new("body: must be a String, a File or a Pathname, not #{value.class}", code: 1)
      end
    end

    # A part is a String (a field), a File or Pathname (streamed from disk), or a Hash with
    # :data or :path and optional :filename and :content_type.
    def add_part(name, part)
      case part
      when String then NativeCall.invoke(:courier_request_add_multipart_field, @pointer, name, NativeCall.text(part, "part #{name.inspect}"))
      when Pathname, File then add_file_part(name, part.to_path, nil, nil)
      when Hash then add_described_part(name, part)
      else
        raise InvalidRequestError.new("multipart part #{name.inspect} must be a String, a File, a Pathname or a Hash, not #{part.class}",
                                      code: 1)
      end
    end

    def add_described_part(name, part)
      unknown = part.keys - %i[data path filename content_type]
      raise InvalidRequestError.new("multipart part #{name.inspect} has unknown keys #{unknown.inspect}", code: 1) unless unknown.empty?

      filename = part[:filename] && NativeCall.text(part[:filename], "the filename of part #{name.inspect}")
      type = part[:content_type] && NativeCall.text(part[:content_type], "the content type of part #{name.inspect}")
      if part.key?(:data) == part.key?(:path)
        raise InvalidRequestError.new("multipart part #{name.inspect} needs exactly one of :data and :path", code: 1)
      end
      return add_file_part(name, part[:path].to_s, filename, type) if part.key?(:path)

      data = part[:data]
      raise InvalidRequestError.new("the data of part #{name.inspect} must be a String", code: 1) unless data.is_a?(String)

      NativeCall.invoke(:courier_request_add_multipart_data, @pointer, name, filename, type,
                        FFI::MemoryPointer.from_string(data), data.bytesize)
    end

    def add_file_part(name, path, filename, type)
      NativeCall.invoke(:courier_request_add_multipart_file, @pointer, name, NativeCall.text(path, "the path of part #{name.inspect}"),
                        filename, type)
    end

    def set_timeout(seconds)
      unless seconds.is_a?(Numeric) && seconds.positive? && seconds.finite?
        raise InvalidRequestError.new("timeout: must be a positive number of seconds, not #{seconds.inspect}", code: 1)
      end

      NativeCall.invoke(:courier_request_set_timeout_ms, @pointer, [(seconds * 1000).ceil, 1].max)
    end
  end
end
