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

package io.distlock.build.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Compares the public API of the module under test (its {@code target/classes}) with the
 * baseline committed in {@code api/<artifactId>.api}, and fails with the lines that were
 * added or removed. A published module runs it by declaring a {@code PublicApiTests} that
 * extends this class.
 * <p>
 * With {@code -Ddistlock.api.update=true} the test writes the baseline instead: the
 * change to the API is then in the diff of the same commit, reviewed like code.
 *
 * @author The distlock maintainers
 */
public abstract class AbstractPublicApiTests {

	private static final String UPDATE_PROPERTY = "distlock.api.update";

	@Test
	void publicApiMatchesTheBaseline() throws IOException {
		Path module = Path.of(System.getProperty("distlock.api.module-dir", "")).toAbsolutePath();
		String artifactId = System.getProperty("distlock.api.artifact-id", module.getFileName().toString());
		Path baseline = module.resolve("api").resolve(artifactId + ".api");
		List<String> api = PublicApi.read(module.resolve("target/classes"));
		Assertions.assertFalse(api.isEmpty(), () -> "No public type in " + module.resolve("target/classes"));
		if (Boolean.getBoolean(UPDATE_PROPERTY)) {
			Files.createDirectories(baseline.getParent());
			List<String> content = new ArrayList<>();
			content.add("# The public API of " + artifactId + ": see \"The public API baseline\" in CONTRIBUTING.md.");
			content.addAll(api);
			Files.write(baseline, content, StandardCharsets.UTF_8);
			return;
		}
		List<String> recorded = Files.exists(baseline) ? read(baseline) : List.of();
		Set<String> removed = new LinkedHashSet<>(recorded);
		api.forEach(removed::remove);
		Set<String> added = new LinkedHashSet<>(api);
		recorded.forEach(added::remove);
		if (removed.isEmpty() && added.isEmpty()) {
			return;
		}
		StringBuilder message = new StringBuilder();
		message.append("The public API of ").append(artifactId).append(" differs from its baseline ").append(baseline);
		message.append(" (").append(removed.size()).append(" line(s) removed, ").append(added.size());
		message.append(" added):\n");
		removed.forEach((line) -> message.append("- ").append(line).append('\n'));
		added.forEach((line) -> message.append("+ ").append(line).append('\n'));
		message.append("If the change is intended, update the baseline and commit it with the change:\n");
		message.append("  ./mvnw test -pl :").append(artifactId);
		message.append(" -am -Dtest=PublicApiTests -Dsurefire.failIfNoSpecifiedTests=false -D");
		message.append(UPDATE_PROPERTY).append("=true");
		Assertions.fail(message.toString());
	}

	private static List<String> read(Path baseline) throws IOException {
		List<String> lines = new ArrayList<>();
		for (String line : Files.readAllLines(baseline, StandardCharsets.UTF_8)) {
			if (!line.isBlank() && !line.startsWith("#")) {
				lines.add(line);
			}
		}
		return lines;
	}

}
