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
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.distlock.docs.DocumentationPages.CodeBlock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code distlock.*} name the documentation uses is one the code knows (a property
 * of the configuration metadata, a group of them, or a name the code spells out, such as
 * a meter), and the configuration page lists every property of the metadata, so that the
 * two cannot drift apart.
 */
class DocumentationPropertiesTests {

	private static final Pattern NAME = Pattern
		.compile("(?<![\\w.$/-])distlock\\.[a-z][a-z0-9-]*(?:\\.[a-z0-9][a-z0-9-]*)*");

	private static final Pattern METADATA_NAME = Pattern.compile("\"name\"\\s*:\\s*\"(distlock\\.[^\"]+)\"");

	private static final Pattern LITERAL = Pattern.compile("\"(distlock\\.[a-z0-9.-]+)\"");

	private static final Pattern YAML_KEY = Pattern.compile("^(\\s*)([a-z][a-z0-9-]*):(.*)$");

	private static final Path CONFIGURATION_PAGE = Path.of("docs", "configuration.md");

	@Test
	void everyDistlockNameInTheDocumentationIsKnownToTheCode() throws IOException {
		Set<String> properties = metadataNames();
		Set<String> literals = codeLiterals();
		List<String> unknown = new ArrayList<>();
		for (Path page : DocumentationPages.all()) {
			Set<String> names = new LinkedHashSet<>();
			Matcher matcher = NAME.matcher(String.join("\n", DocumentationPages.lines(page)));
			while (matcher.find()) {
				names.add(matcher.group());
			}
			for (CodeBlock block : DocumentationPages.codeBlocks(page)) {
				if (block.language().equals("yaml") || block.language().equals("yml")) {
					names.addAll(yamlNames(block.body()));
				}
			}
			names.stream()
				.filter((name) -> !known(name, properties, literals))
				.forEach((name) -> unknown.add(page + ": " + name));
		}
		assertThat(unknown).as("distlock.* names in the documentation that no property or code has").isEmpty();
	}

	@Test
	void theConfigurationPageListsEveryProperty() throws IOException {
		String page = String.join("\n", DocumentationPages.lines(CONFIGURATION_PAGE));
		Set<String> missing = new TreeSet<>();
		for (String property : metadataNames()) {
			if (!page.contains("`" + property + "`") && !isGroup(property)) {
				missing.add(property);
			}
		}
		assertThat(missing).as("properties that " + CONFIGURATION_PAGE + " does not name").isEmpty();
	}

	@Test
	void yamlKeysAreReadWithTheirParents() {
		assertThat(yamlNames(
				List.of("spring:", "  data:", "    redis:", "      host: localhost", "distlock:", "  default-ttl: 30s",
						"  redlock:", "    nodes:", "      - redis://a:6379", "  aop:", "    mode: aspectj")))
			.containsExactly("distlock.default-ttl", "distlock.redlock.nodes", "distlock.aop.mode");
	}

	private static boolean known(String name, Set<String> properties, Set<String> literals) {
		if (literals.contains(name)) {
			return true;
		}
		for (String property : properties) {
			// A group, the property itself, or an entry of a map property.
			if (property.equals(name) || property.startsWith(name + ".") || name.startsWith(property + ".")) {
				return true;
			}
		}
		return false;
	}

	private static boolean isGroup(String name) throws IOException {
		for (String property : metadataNames()) {
			if (property.startsWith(name + ".")) {
				return true;
			}
		}
		return false;
	}

	// The distlock.* keys a YAML block sets (leaves only), from its indentation.
	static List<String> yamlNames(List<String> body) {
		List<String> names = new ArrayList<>();
		List<Integer> indents = new ArrayList<>();
		List<String> path = new ArrayList<>();
		for (String line : body) {
			Matcher key = YAML_KEY.matcher(line);
			if (!key.matches()) {
				continue;
			}
			int indent = key.group(1).length();
			while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
				indents.remove(indents.size() - 1);
				path.remove(path.size() - 1);
			}
			indents.add(indent);
			path.add(key.group(2));
			String name = String.join(".", path);
			boolean leaf = !key.group(3).isBlank() || isParentOfList(body, line);
			if (leaf && name.startsWith("distlock.")) {
				names.add(name);
			}
		}
		return names;
	}

	private static boolean isParentOfList(List<String> body, String line) {
		int next = body.indexOf(line) + 1;
		return next < body.size() && body.get(next).trim().startsWith("- ");
	}

	private static Set<String> metadataNames() throws IOException {
		Set<String> names = new TreeSet<>();
		for (URL url : Collections.list(DocumentationPropertiesTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				Matcher matcher = METADATA_NAME.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			}
		}
		assertThat(names).as("distlock's configuration metadata").isNotEmpty();
		return names;
	}

	// The distlock.* names the main code of every module spells out (meters, tags,
	// observation keys, system properties of the test harness).
	private static Set<String> codeLiterals() throws IOException {
		Set<String> literals = new TreeSet<>();
		try (Stream<Path> files = Files.walk(DocumentationPages.ROOT)) {
			List<Path> sources = files.filter((path) -> path.toString().contains("/src/main/"))
				.filter((path) -> !path.toString().contains("/target/"))
				.filter((path) -> path.toString().endsWith(".java") || path.toString().endsWith(".kt"))
				.toList();
			for (Path source : sources) {
				Matcher matcher = LITERAL.matcher(Files.readString(source));
				while (matcher.find()) {
					literals.add(matcher.group(1));
				}
			}
		}
		return literals;
	}

}
