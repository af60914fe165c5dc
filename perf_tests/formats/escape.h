#pragma once
// How text from outside the program (names, messages and versions read from results and baselines) is
// written into each medium a report goes to: one function per medium, used wherever such text leaves.
// Names are validated where they enter (names.h), so for them this changes nothing; it is the second
// line of defence, and the only one for free text such as a benchmark's error message.
//
// Every medium starts from escape_console: a byte outside printable ASCII (0x20-0x7E: control characters
// such as newline, CR, ESC and NUL, and every non-ASCII byte) and the backslash itself are written \xNN
// (two lower-case hex digits), so the text stays on one line, moves no cursor and can be read back
// unambiguously. baselines/README.md ("Names") states the same rule for users.

#include <string>
#include <string_view>

namespace gpuperf::formats {

// A console or the GitHub Actions log: the rule above, and a text that would start with "::" starts
// "\x3a:" instead, so that even at the start of a line it is never a workflow command.
//   escape_console("a\n::error::x") == "a\x0a::error::x"
std::string escape_console(std::string_view text);

// A GitHub workflow command's message (after "::error title=...::"): '%' CR LF as %25 %0D %0A, GitHub's
// own escapes, which the runner decodes; every other byte escape_console would escape as \xNN, so that
// nothing can end the line and with it the command. A "::" inside the message stays: only a line's
// start begins a command.
//   escape_workflow_message("50%\n::error::x") == "50%25%0A::error::x"
std::string escape_workflow_message(std::string_view text);

// A property of a workflow command (the "title=..." of ::error): the message's escapes, and also ':' and
// ',' as %3A and %2C (they would end the property or the properties).
//   escape_workflow_property("SLOW a/b/n:1") == "SLOW a/b/n%3A1"
std::string escape_workflow_property(std::string_view text);

// Markdown text: a table cell or a sentence of a report (and a line that goes to a console as well).
// escape_console, then: '|' as \| (it would end the cell), '`' as \` (it would open a code span), '&' as
// &amp; (no entity), '<' as &lt; where a letter, '/', '!' or '?' follows (where HTML or an autolink could
// start: "reduce9_kernel<256>" keeps its '<', "<img" does not), "](" as "]\(" (no link or image), '@'
// followed by an invisible &#8203; (it mentions no one). Emphasis characters (* _ ~) are left as they are.
std::string escape_markdown_text(std::string_view text);

// A Markdown code span, delimiters included, safe in a table cell: escape_console, '|' as \| (GitHub
// removes the backslash in a table), and a fence of one backtick more than the longest run of backticks
// in the text (padded with a space where the text starts or ends with a backtick or a space), so that
// nothing in it ends the span. Inside a code span GitHub shows < & @ [ literally. "" gives "``".
//   markdown_code_span("a`b") == "``a`b``"
std::string markdown_code_span(std::string_view text);

// A double-quoted string of a Mermaid chart (a fleet report's ```mermaid block, drawn as HTML/SVG):
// escape_console, '"' as ' (a Mermaid string cannot hold one), and # < > & ` as Mermaid's entity codes
// #35; #lt; #gt; #amp; #96;. The quotes are not included.
std::string escape_mermaid_string(std::string_view text);

}  // namespace gpuperf::formats
