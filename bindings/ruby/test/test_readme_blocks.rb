# frozen_string_literal: true

# Every ```ruby block of the documentation set (the documents Tests/Support/ReadmeBlocks/
# DocumentationSet.swift lists, this package's README among them), run as a script with `ruby -w`
# against the loopback server, from the repository's root (where the plugin paths of the examples
# point). The blocks talk to http://127.0.0.1:8080; here that is the suite's server. As for the
# Python README, ```sh blocks and ```text output are not run here: only ```ruby blocks.
require_relative "test_helper"

class TestReadmeBlocks < Minitest::Test
  include CourierTest::Helpers

  README = File.expand_path("../README.md", __dir__)
  DOCUMENTATION_SET = File.join(CourierTest::REPO, "Tests/Support/ReadmeBlocks/DocumentationSet.swift")

  # The documents' paths from the repository's root, as the Swift tests list them.
  def self.documents
    listed = File.read(DOCUMENTATION_SET)[/static let documents = \[(.*?)\]/m, 1]
    raise "#{DOCUMENTATION_SET} no longer declares `documents`" unless listed

    listed.scan(/"([^"]+)"/).flatten
  end

  # ["path:line", code] for each ```ruby block, the line being its opening fence's.
  def self.ruby_blocks
    documents.flat_map do |path|
      text = File.read(File.join(CourierTest::REPO, path))
      text.to_enum(:scan, /^```ruby\n(.*?)^```$/m).map do
        match = Regexp.last_match
        ["#{path}:#{text[0, match.begin(0)].count("\n") + 1}", match[1]]
      end
    end
  end

  def test_this_readme_is_in_the_documentation_set
    assert_includes self.class.documents, "bindings/ruby/README.md"
  end

  def test_the_readme_has_ruby_blocks
    assert_operator self.class.ruby_blocks.size, :>=, 5
  end

  ruby_blocks.each do |place, code|
    define_method("test_documented_ruby_block_runs_#{place.tr(":./", "___")}") do
      CourierTest.plugins
      script = "Dir.chdir(#{CourierTest::REPO.inspect})\n" + code.gsub("http://127.0.0.1:8080", server.url)
      output, status = CourierTest.run_ruby(script, timeout: 120)
      assert status.success?, "#{place}:\n#{output}"
      refute_match(/warning:/, output, "#{place} ran with warnings")
    end
  end
end
