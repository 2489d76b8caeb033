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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.distlock.redis.LockScripts.Prelude;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockScripts}: that each rule the scripts share is written once, in the
 * prelude, that every script is assembled from the pieces it calls, and that every header
 * reads in the same order. Reads the files only; no Redis.
 */
class LockScriptsTests {

	private static final Pattern TIME_CALL = Pattern.compile("'TIME'|\"TIME\"", Pattern.CASE_INSENSITIVE);

	private static final Pattern PUBLISH_CALL = Pattern
		.compile("'S?PUBLISH'|\"S?PUBLISH\"|REDIS_VERSION_NUM|pcall\\(\\s*publish\\b", Pattern.CASE_INSENSITIVE);

	private static final Pattern FUNCTION = Pattern.compile("^local function (\\w+)\\(([^)]*)\\)", Pattern.MULTILINE);

	private static final Pattern ENTRY = Pattern.compile("^-- (KEYS|ARGV)\\[([^\\]]+)\\]\\s+\\S");

	private static final Pattern CONTINUATION = Pattern.compile("^--\\s{2,}\\S");

	private static final Pattern BOUND = Pattern.compile("(?:(\\d*)N)?(?:\\+?(\\d+))?");

	// A batch script's N, for the order of ARGV[1..N], ARGV[N+1..2N] and ARGV[2N+1].
	private static final int N = 100;

	@Test
	void noScriptButThePreludeReadsTheClock() throws Exception {
		assertThat(bodies())
			.allSatisfy((name, text) -> assertThat(code(text)).as(name).doesNotContainPattern(TIME_CALL));
		assertThat(matches(TIME_CALL, code(prelude(Prelude.TIME)))).isEqualTo(1);
		assertThat(code(prelude(Prelude.PUBLISH) + prelude(Prelude.FENCING))).doesNotContainPattern(TIME_CALL);
	}

	@Test
	void noScriptButThePreludePublishes() throws Exception {
		assertThat(bodies())
			.allSatisfy((name, text) -> assertThat(code(text)).as(name).doesNotContainPattern(PUBLISH_CALL));
		assertThat(code(prelude(Prelude.TIME) + prelude(Prelude.FENCING))).doesNotContainPattern(PUBLISH_CALL);
	}

	@Test
	void everySharedFunctionIsDefinedOnceInAllTheFiles() throws Exception {
		Map<String, String> files = new LinkedHashMap<>(bodies());
		for (Prelude piece : Prelude.values()) {
			files.put(piece.file(), prelude(piece));
		}
		for (Prelude piece : Prelude.values()) {
			for (String function : functions(prelude(piece)).keySet()) {
				Pattern definition = Pattern.compile("function\\s+" + function + "\\b");
				assertThat(files.values().stream().mapToInt((text) -> matches(definition, code(text))).sum())
					.as(function)
					.isEqualTo(1);
			}
		}
		assertThat(functions(prelude(Prelude.FENCING))).containsOnlyKeys("fencing_token");
		assertThat(bodies()).allSatisfy((name, text) -> assertThat(code(text)).as(name)
			.doesNotContain("string.format('%d:%d'")
			.doesNotContainPattern("'GET'\\s*\\)"));
	}

	@Test
	void everyScriptIsItsFileBehindThePreludePiecesItCallsInOrder() throws Exception {
		Map<String, String> bodies = bodies();
		List<String> used = new ArrayList<>();
		for (LockScript<?> script : LockScripts.ALL) {
			String text = script.getScriptAsString();
			List<String> names = bodies.entrySet()
				.stream()
				.filter((body) -> text.endsWith(body.getValue()))
				.map(Map.Entry::getKey)
				.toList();
			assertThat(names).hasSize(1);
			String name = names.get(0);
			used.add(name);
			String front = text.substring(0, text.length() - bodies.get(name).length());
			Set<Prelude> called = called(bodies.get(name));
			int from = 0;
			for (Prelude piece : Prelude.values()) {
				int at = front.indexOf(prelude(piece));
				if (called.contains(piece)) {
					assertThat(at).as("%s in front of %s, after the pieces before it", piece.file(), name)
						.isGreaterThanOrEqualTo(from);
					from = at + prelude(piece).length();
				}
				else {
					assertThat(at).as("%s, not called, in front of %s", piece.file(), name).isEqualTo(-1);
				}
			}
			assertThat(front.substring(from)).as("what follows the prelude of %s", name).isBlank();
		}
		assertThat(used).containsExactlyInAnyOrderElementsOf(bodies.keySet());
	}

	@Test
	void everyScriptHeaderSaysWhatItDoesThenListsKeysThenArgumentsInOrderThenTheReply() throws Exception {
		assertThat(bodies()).allSatisfy((name, text) -> {
			List<String> header = header(text);
			int summary = header.indexOf("--");
			assertThat(summary).as("the blank line after the summary of %s", name).isBetween(1, 2);
			List<String> entries = new ArrayList<>();
			int line = summary + 1;
			while (line < header.size() && (ENTRY.matcher(header.get(line)).find()
					|| (!entries.isEmpty() && CONTINUATION.matcher(header.get(line)).find()))) {
				Matcher entry = ENTRY.matcher(header.get(line));
				if (entry.find()) {
					entries.add(entry.group(1) + "[" + entry.group(2) + "]");
				}
				line++;
			}
			assertThat(entries).as("the KEYS and ARGV of %s", name).isNotEmpty();
			assertThat(header.subList(line, header.size())).as("the header of %s after its KEYS and ARGV", name)
				.noneMatch((rest) -> ENTRY.matcher(rest).find());
			assertThat(header.get(line)).as(name).isEqualTo("--");
			assertThat(header.get(line + 1)).as(name).startsWith("-- Returns ");
			// The kinds in the order they come, a run of lines of one kind counted once.
			List<String> kinds = new ArrayList<>();
			for (String entry : entries) {
				String kind = entry.substring(0, 4);
				if (kinds.isEmpty() || !kinds.get(kinds.size() - 1).equals(kind)) {
					kinds.add(kind);
				}
			}
			assertThat(kinds).as("KEYS, then ARGV, in %s: %s", name, entries)
				.isIn(List.of("KEYS"), List.of("KEYS", "ARGV"));
			for (String kind : kinds) {
				assertThat(ascending(entries, kind)).as("%s of %s: %s", kind, name, entries).isTrue();
			}
		});
	}

	@Test
	void everyPreludePieceSaysWhatItIsThenDocumentsEachFunctionItsArgumentsInOrderAndTheReply() throws Exception {
		for (Prelude piece : Prelude.values()) {
			String text = prelude(piece);
			List<String> header = header(text);
			assertThat(header.indexOf("--")).as("the blank line after the summary of %s", piece.file()).isBetween(1, 2);
			Map<String, List<String>> functions = functions(text);
			assertThat(functions).as(piece.file()).isNotEmpty();
			functions.forEach((function, parameters) -> {
				String signature = "-- " + function + "(" + String.join(", ", parameters) + ")";
				assertThat(header).as(piece.file()).contains(signature);
				List<String> documentation = paragraph(header, header.indexOf(signature));
				int previous = -1;
				for (String parameter : parameters) {
					int at = indexOfMatch(documentation, "^--\\s+" + parameter + "\\s");
					assertThat(at).as("%s of %s, after the one before it", parameter, signature)
						.isGreaterThan(previous);
					previous = at;
				}
				assertThat(indexOfMatch(documentation, "^--\\s+Returns ")).as("what %s returns", signature)
					.isGreaterThan(previous);
			});
		}
	}

	private static boolean ascending(List<String> entries, String kind) {
		int next = 1;
		for (String entry : entries) {
			if (entry.startsWith(kind)) {
				String[] bounds = entry.substring(5, entry.length() - 1).split("\\.\\.");
				if (bound(bounds[0]) != next) {
					return false;
				}
				next = bound(bounds[bounds.length - 1]) + 1;
			}
		}
		return true;
	}

	private static int bound(String bound) {
		Matcher matcher = BOUND.matcher(bound.replace(" ", ""));
		assertThat(matcher.matches()).as("an index such as 1, N or 2N+1: %s", bound).isTrue();
		int perN = (matcher.group(1) != null) ? (matcher.group(1).isEmpty() ? 1 : Integer.parseInt(matcher.group(1)))
				: 0;
		int plus = (matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 0;
		return perN * N + plus;
	}

	private static Set<Prelude> called(String body) {
		Set<Prelude> called = EnumSet.noneOf(Prelude.class);
		for (Prelude piece : Prelude.values()) {
			for (String function : functions(prelude(piece)).keySet()) {
				if (Pattern.compile("\\b" + function + "\\(").matcher(code(body)).find()) {
					called.add(piece);
				}
			}
		}
		return called;
	}

	private static Map<String, List<String>> functions(String text) {
		Map<String, List<String>> functions = new LinkedHashMap<>();
		Matcher matcher = FUNCTION.matcher(text);
		while (matcher.find()) {
			List<String> parameters = Arrays.stream(matcher.group(2).split(","))
				.map(String::trim)
				.filter((parameter) -> !parameter.isEmpty())
				.toList();
			functions.put(matcher.group(1), parameters);
		}
		return functions;
	}

	private static List<String> header(String text) {
		return text.lines().takeWhile((line) -> line.startsWith("--")).toList();
	}

	private static List<String> paragraph(List<String> header, int from) {
		int to = from;
		while (to < header.size() && !header.get(to).equals("--")) {
			to++;
		}
		return header.subList(from, to);
	}

	private static int indexOfMatch(List<String> lines, String regex) {
		Pattern pattern = Pattern.compile(regex);
		for (int i = 0; i < lines.size(); i++) {
			if (pattern.matcher(lines.get(i)).find()) {
				return i;
			}
		}
		return -1;
	}

	private static int matches(Pattern pattern, String text) {
		return (int) pattern.matcher(text).results().count();
	}

	/**
	 * The code of a script without its comments, none of which sits inside a string.
	 */
	private static String code(String text) {
		return text.lines().map((line) -> line.replaceAll("--.*$", "")).collect(Collectors.joining("\n"));
	}

	private static String prelude(Prelude piece) {
		try {
			return Files.readString(scripts().resolve(piece.file()), StandardCharsets.UTF_8);
		}
		catch (IOException | URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Every Lua file beside {@link LockScripts} that is not a piece of the prelude, by
	 * name.
	 */
	private static Map<String, String> bodies() throws IOException, URISyntaxException {
		Set<String> prelude = Arrays.stream(Prelude.values()).map(Prelude::file).collect(Collectors.toSet());
		Map<String, String> bodies = new LinkedHashMap<>();
		try (Stream<Path> files = Files.list(scripts())) {
			for (Path file : files.sorted().toList()) {
				String name = file.getFileName().toString();
				if (name.endsWith(".lua") && !prelude.contains(name)) {
					bodies.put(name, Files.readString(file, StandardCharsets.UTF_8));
				}
			}
		}
		assertThat(bodies).hasSizeGreaterThanOrEqualTo(LockScripts.ALL.size());
		return bodies;
	}

	private static Path scripts() throws URISyntaxException {
		return Path.of(LockScripts.class.getResource("acquire.lua").toURI()).getParent();
	}

}
