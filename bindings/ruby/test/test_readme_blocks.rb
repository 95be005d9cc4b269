# frozen_string_literal: true

# Every ```ruby block of bindings/ruby/README.md, run as a script with `ruby -w` against the
# loopback server, from the repository's root (where the plugin paths of the examples point).
# The blocks talk to http://127.0.0.1:8080; here that is the suite's server. As for the Python
# README, ```sh blocks and ```text output are not run: only ```ruby blocks are code to check.
require_relative "test_helper"

class TestReadmeBlocks < Minitest::Test
  include CourierTest::Helpers

  README = File.expand_path("../README.md", __dir__)

  # ["README.md:line", code] for each ```ruby block, the line being its opening fence's.
  def self.ruby_blocks
    text = File.read(README)
    text.to_enum(:scan, /^```ruby\n(.*?)^```$/m).map do
      match = Regexp.last_match
      ["README.md:#{text[0, match.begin(0)].count("\n") + 1}", match[1]]
    end
  end

  def test_the_readme_has_ruby_blocks
    assert_operator self.class.ruby_blocks.size, :>=, 5
  end

  ruby_blocks.each do |place, code|
    define_method("test_documented_ruby_block_runs_#{place.tr(":.", "__")}") do
      CourierTest.plugins
      script = "Dir.chdir(#{CourierTest::REPO.inspect})\n" + code.gsub("http://127.0.0.1:8080", server.url)
      output, status = CourierTest.run_ruby(script, timeout: 120)
      assert status.success?, "#{place}:\n#{output}"
      refute_match(/warning:/, output, "#{place} ran with warnings")
    end
  end
end
