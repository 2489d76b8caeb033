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
package io.distlock.redis;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockScriptsRuntimeHints}.
 */
class LockScriptsRuntimeHintsTests {

	@Test
	void givenTheDeclaredRegistrarsWhenHintsAreCollectedThenEveryResourceOfTheEngineIsIncluded() throws Exception {
		RuntimeHints hints = declaredHints();
		// Every file the engine ships beside its classes, not only the scripts known
		// today: a script added anywhere without a hint fails here.
		List<String> resources = engineResources();
		assertThat(resources).hasSizeGreaterThanOrEqualTo(LockScripts.ALL.size());
		assertThat(resources)
			.allSatisfy((resource) -> assertThat(RuntimeHintsPredicates.resource().forResource(resource))
				.as("resource hint for %s", resource)
				.accepts(hints));
	}

	@Test
	void givenTheRegistrarWhenThePreludeIsCheckedThenEveryPieceIsIncluded() {
		RuntimeHints hints = new RuntimeHints();
		new LockScriptsRuntimeHints().registerHints(hints, getClass().getClassLoader());
		// The scripts are assembled from these when LockScripts is loaded: a piece
		// missing from the image fails every script that calls it.
		assertThat(LockScripts.Prelude.values()).allSatisfy((
				piece) -> assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/redis/" + piece.file()))
					.as("resource hint for %s", piece.file())
					.accepts(hints));
	}

	@Test
	void givenNoHintsWhenAScriptIsCheckedThenItIsNotIncluded() {
		// The check above can fail: without the registrar a script is not in the image.
		assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/redis/acquire.lua"))
			.rejects(new RuntimeHints());
	}

	@Test
	void givenTheRegistrarWhenAFileOutsideTheScriptsIsCheckedThenItIsNotIncluded() {
		RuntimeHints hints = new RuntimeHints();
		new LockScriptsRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/redis/notes.txt")).rejects(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource("io/distlock/redis/acquire.lua")).accepts(hints);
	}

	private static RuntimeHints declaredHints() {
		RuntimeHints hints = new RuntimeHints();
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)
			.forEach(
					(registrar) -> registrar.registerHints(hints, LockScriptsRuntimeHintsTests.class.getClassLoader()));
		return hints;
	}

	private static List<String> engineResources() throws IOException, URISyntaxException {
		Path classes = Path.of(LockScripts.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		Path engine = classes.resolve("io/distlock");
		try (Stream<Path> files = Files.walk(engine)) {
			return files.filter(Files::isRegularFile)
				.filter((file) -> !file.getFileName().toString().endsWith(".class"))
				.map((file) -> classes.relativize(file).toString().replace('\\', '/'))
				.sorted()
				.toList();
		}
	}

}
