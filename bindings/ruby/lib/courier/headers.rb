# frozen_string_literal: true

module Courier
  # Header fields in order, looked up without regard to case as HTTP says names are compared:
  # `headers["content-type"]` and `headers["Content-Type"]` are the same field. A name with
  # several lines reads as their values joined with ", "; `all` gives them one by one.
  class Headers
    include Enumerable

    # `lines` is an Array of [name, value] pairs, or a Hash (a value may be an Array of values).
    def initialize(lines = [])
      @lines = []
      lines.each do |name, value|
        if value.is_a?(Array)
          value.each { |one| @lines << [name.to_s, one.to_s] }
        else
          @lines << [name.to_s, value.to_s]
        end
      end
    end

    def [](name)
      values = all(name)
      values.empty? ? nil : values.join(", ")
    end

    def fetch(name, *default)
      value = self[name]
      return value unless value.nil?
      return default.first unless default.empty?
      return yield(name) if block_given?

      raise KeyError, "no header named #{name.inspect}"
    end

    # Every value of `name`, in order.
    def all(name)
      wanted = name.to_s.downcase
      @lines.filter_map { |line_name, value| value if line_name.downcase == wanted }
    end

    def key?(name)
      wanted = name.to_s.downcase
      @lines.any? { |line_name, _| line_name.downcase == wanted }
    end
    alias include? key?

    # Yields each line as (name, value), repeated names included.
    def each(&block)
      return enum_for(:each) unless block

      @lines.each { |name, value| block.call(name, value) }
      self
    end

    # Names as sent, each once, values joined as #[] joins them.
    def to_h
      @lines.each_with_object({}) do |(name, value), result|
        existing = result.keys.find { |key| key.casecmp?(name) }
        existing ? result[existing] = "#{result[existing]}, #{value}" : result[name] = value
      end
    end

    def size
      @lines.size
    end

    def empty?
      @lines.empty?
    end

    def to_a
      @lines.map(&:dup)
    end

    def inspect
      "#<Courier::Headers #{@lines.inspect}>"
    end
  end
end
