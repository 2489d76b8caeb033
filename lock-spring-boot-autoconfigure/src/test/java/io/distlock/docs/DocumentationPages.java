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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The Markdown pages a user reads (the README, {@code CONTRIBUTING.md}, every page under
 * {@code docs/} and each module's {@code README.md}) and the fenced code blocks in them.
 * The CHANGELOG is a record, not documentation, and is left out.
 */
final class DocumentationPages {

	/** The repository's root, seen from this module. */
	static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private DocumentationPages() {
	}

	/**
	 * List the pages, as paths from the repository's root.
	 */
	static List<Path> all() {
		List<Path> pages = new ArrayList<>();
		for (String top : List.of("README.md", "CONTRIBUTING.md")) {
			if (Files.isRegularFile(ROOT.resolve(top))) {
				pages.add(Path.of(top));
			}
		}
		try (Stream<Path> docs = Files.walk(ROOT.resolve("docs")); Stream<Path> modules = Files.list(ROOT)) {
			docs.filter((path) -> path.toString().endsWith(".md")).map(ROOT::relativize).sorted().forEach(pages::add);
			modules.filter((module) -> Files.isRegularFile(module.resolve("README.md")))
				.map((module) -> ROOT.relativize(module.resolve("README.md")))
				.sorted()
				.forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	/**
	 * Read a page's lines.
	 */
	static List<String> lines(Path page) {
		try {
			return Files.readAllLines(ROOT.resolve(page));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The fenced code blocks of a page, each with the HTML comment that stands right
	 * before it, if any.
	 */
	static List<CodeBlock> codeBlocks(Path page) {
		List<String> lines = lines(page);
		List<CodeBlock> blocks = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			String trimmed = line.trim();
			if (!trimmed.startsWith("```")) {
				continue;
			}
			String fence = trimmed.substring(0, trimmed.length() - trimmed.replaceFirst("^`+", "").length());
			String language = trimmed.substring(fence.length()).trim();
			int start = i;
			List<String> body = new ArrayList<>();
			i++;
			while (i < lines.size() && !lines.get(i).trim().equals(fence)) {
				body.add(lines.get(i));
				i++;
			}
			blocks.add(new CodeBlock(page, start + 1, language, body, commentBefore(lines, start)));
		}
		return blocks;
	}

	private static @Nullable String commentBefore(List<String> lines, int fenceIndex) {
		int i = fenceIndex - 1;
		while (i >= 0 && lines.get(i).isBlank()) {
			i--;
		}
		if (i < 0) {
			return null;
		}
		String line = lines.get(i).trim();
		return (line.startsWith("<!--") && line.endsWith("-->")) ? line.substring(4, line.length() - 3).trim() : null;
	}

	/**
	 * One fenced code block.
	 *
	 * @param page the page, from the repository's root
	 * @param line the line of its opening fence, from 1
	 * @param language what follows the opening fence
	 * @param body its lines
	 * @param marker the HTML comment right before it, without its delimiters
	 */
	record CodeBlock(Path page, int line, String language, List<String> body, @Nullable String marker) {

		String where() {
			return this.page + ":" + this.line;
		}

	}

}
