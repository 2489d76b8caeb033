/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import io.distlock.docs.DocumentationPages.CodeBlock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every code block of the documentation is a copy of code the build compiles and runs, so
 * that it cannot go stale: a block is preceded by {@code <!-- snippet: PATH -->}, PATH
 * being a file of the repository (a test, a test resource, a POM, {@code .ci/run}) whose
 * lines hold the block's lines in the same order, or, for the rare block that cannot be
 * (a Gradle build, the output of a command), by {@code <!-- not compiled: WHY -->}.
 *
 * <p>
 * Lines are compared trimmed, blank lines left out. A block line that is only
 * {@code // ...}, {@code # ...}, {@code <!-- ... -->} or {@code ...} stands for lines of
 * the file the block leaves out (imports, other methods); the lines between two such
 * lines are consecutive in the file.
 */
class DocumentationSnippetsTests {

	private static final String SNIPPET = "snippet:";

	private static final String NOT_COMPILED = "not compiled:";

	private static final Set<String> ELISIONS = Set.of("// ...", "# ...", "<!-- ... -->", "...");

	@Test
	void everyCodeBlockIsASnippetOfCompiledCodeOrSaysWhyNot() {
		List<String> problems = new ArrayList<>();
		for (Path page : DocumentationPages.all()) {
			for (CodeBlock block : DocumentationPages.codeBlocks(page)) {
				String problem = check(block);
				if (problem != null) {
					problems.add(block.where() + ": " + problem);
				}
			}
		}
		assertThat(problems).as("code blocks of the documentation that are not checked").isEmpty();
	}

	@Test
	void aBlockMatchesItsFileWithElidedLinesAndIndentation() {
		CodeBlock block = new CodeBlock(Path.of("test.md"), 1, "java",
				List.of("public class PaymentService {", "", "    // ...",
						"	@DistributedLocked(key = \"#orderId\", ttl = \"10s\")",
						"	public void pay(long orderId) {"),
				SNIPPET + " lock-spring-boot-autoconfigure/src/test/java/io/distlock/docs/PaymentService.java");

		assertThat(check(block)).isNull();
	}

	@Test
	void aBlockThatDiffersFromItsFileIsReported() {
		CodeBlock block = new CodeBlock(Path.of("test.md"), 1, "java",
				List.of("@DistributedLocked(key = \"#orderId\", ttl = \"30s\")"),
				SNIPPET + " lock-spring-boot-autoconfigure/src/test/java/io/distlock/docs/PaymentService.java");

		assertThat(check(block)).contains("ttl = \"30s\"").contains("PaymentService.java");
	}

	@Test
	void aBlockWithoutAMarkerOrWithAMissingFileIsReported() {
		CodeBlock unmarked = new CodeBlock(Path.of("test.md"), 1, "java", List.of("int a;"), null);
		CodeBlock missing = new CodeBlock(Path.of("test.md"), 1, "yaml", List.of("a: b"), SNIPPET + " nowhere.yml");
		CodeBlock noReason = new CodeBlock(Path.of("test.md"), 1, "text", List.of("a"), NOT_COMPILED);

		assertThat(check(unmarked)).contains("<!-- snippet: PATH -->").contains("<!-- not compiled: WHY -->");
		assertThat(check(missing)).contains("nowhere.yml").contains("no such file");
		assertThat(check(noReason)).contains("say why");
	}

	@Test
	void importLinesMayComeInAnyOrderButMustBeTheFilesAndComplete() {
		String marker = SNIPPET + " lock-spring-boot-autoconfigure/src/test/java/io/distlock/docs/PaymentService.java";
		List<String> code = List.of("@DistributedLocked(key = \"#orderId\", ttl = \"10s\")",
				"public void pay(long orderId) {", "long token = LockContext.require().fencingToken();");
		CodeBlock complete = new CodeBlock(Path.of("test.md"), 1, "java", concat(
				List.of("import io.distlock.annotation.DistributedLocked;", "import io.distlock.LockContext;", ""),
				code), marker);
		CodeBlock foreign = new CodeBlock(Path.of("test.md"), 1, "java",
				concat(List.of("import io.distlock.LockTemplate;"), code), marker);
		CodeBlock incomplete = new CodeBlock(Path.of("test.md"), 1, "java",
				concat(List.of("import io.distlock.LockContext;"), code), marker);

		assertThat(check(complete)).isNull();
		assertThat(check(foreign)).contains("import io.distlock.LockTemplate;").contains("not in");
		assertThat(check(incomplete)).contains("import io.distlock.annotation.DistributedLocked;");
	}

	private static List<String> concat(List<String> first, List<String> second) {
		List<String> all = new ArrayList<>(first);
		all.addAll(second);
		return all;
	}

	private static String check(CodeBlock block) {
		String marker = block.marker();
		if (marker != null && marker.startsWith(NOT_COMPILED)) {
			return marker.substring(NOT_COMPILED.length()).isBlank()
					? "'<!-- not compiled: WHY -->' must say why the block is not compiled" : null;
		}
		if (marker == null || !marker.startsWith(SNIPPET)) {
			return "a ```" + block.language() + " block needs '<!-- snippet: PATH -->' (PATH: the compiled file it"
					+ " is taken from) or '<!-- not compiled: WHY -->' right before it";
		}
		String path = marker.substring(SNIPPET.length()).trim();
		Path file = DocumentationPages.ROOT.resolve(path);
		if (!Files.isRegularFile(file)) {
			return "its snippet file '" + path + "' is no such file";
		}
		List<String> fileLines = normalized(DocumentationPages.lines(DocumentationPages.ROOT.relativize(file)));
		List<String> imports = leadingImports(block.body());
		List<String> missing = imports.stream().filter((line) -> !fileLines.contains(line)).toList();
		if (!missing.isEmpty()) {
			return "these imports are not in '" + path + "': " + missing;
		}
		List<String> code = block.body().subList(indexAfterImports(block.body()), block.body().size());
		if (!imports.isEmpty()) {
			List<String> needed = neededImports(fileLines, code);
			needed.removeAll(imports);
			if (!needed.isEmpty()) {
				return "the block shows imports but not these, which its code needs: " + needed;
			}
		}
		int from = 0;
		for (List<String> run : runs(code)) {
			int found = indexOf(fileLines, run, from);
			if (found < 0) {
				return "these lines are not in '" + path + "' (in this order, after what the block shows before"
						+ " them): " + run;
			}
			from = found + run.size();
		}
		return null;
	}

	// The import lines the block opens with, trimmed.
	private static List<String> leadingImports(List<String> body) {
		return body.subList(0, indexAfterImports(body))
			.stream()
			.map(String::trim)
			.filter((line) -> line.startsWith("import "))
			.toList();
	}

	private static int indexAfterImports(List<String> body) {
		int end = 0;
		for (int i = 0; i < body.size(); i++) {
			String line = body.get(i).trim();
			if (line.startsWith("import ")) {
				end = i + 1;
			}
			else if (!line.isEmpty() && !ELISIONS.contains(line)) {
				break;
			}
		}
		return end;
	}

	// The file's imports whose simple name the code uses as a word.
	private static List<String> neededImports(List<String> fileLines, List<String> code) {
		String text = String.join("\n", code);
		List<String> needed = new ArrayList<>();
		for (String line : fileLines) {
			if (line.startsWith("import ") && !line.endsWith("*;") && !line.endsWith("*")) {
				String name = line.replaceFirst(";$", "");
				name = name.substring(name.lastIndexOf('.') + 1);
				if (Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "\\b").matcher(text).find()) {
					needed.add(line);
				}
			}
		}
		return needed;
	}

	// The block's lines between elisions, trimmed, blank ones left out.
	private static List<List<String>> runs(List<String> body) {
		List<List<String>> runs = new ArrayList<>();
		List<String> run = new ArrayList<>();
		for (String line : body) {
			String trimmed = line.trim();
			if (ELISIONS.contains(trimmed)) {
				if (!run.isEmpty()) {
					runs.add(run);
				}
				run = new ArrayList<>();
			}
			else if (!trimmed.isEmpty()) {
				run.add(trimmed);
			}
		}
		if (!run.isEmpty()) {
			runs.add(run);
		}
		return runs;
	}

	private static List<String> normalized(List<String> lines) {
		return lines.stream().map(String::trim).filter((line) -> !line.isEmpty()).toList();
	}

	private static int indexOf(List<String> lines, List<String> run, int from) {
		for (int start = from; start + run.size() <= lines.size(); start++) {
			if (lines.subList(start, start + run.size()).equals(run)) {
				return start;
			}
		}
		return -1;
	}

}
