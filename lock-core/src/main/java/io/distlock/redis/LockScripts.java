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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.util.StreamUtils;

/**
 * The Lua scripts of the lock store, loaded once from the files beside this class. Spring
 * Data Redis's connection runs them with EVALSHA, falling back to EVAL when Redis does
 * not know them: see {@link LockScript}.
 *
 * <p>
 * Each script is assembled when it is loaded: the {@link Prelude} pieces it calls, then
 * its own file. So the rules that several scripts share (reading the Redis clock,
 * publishing a release, handing out a fencing token) are each written once, and the
 * assembled text is the one Redis runs and the SHA-1 is taken of.
 */
final class LockScripts {

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE = load("acquire.lua", List.class, Prelude.TIME, Prelude.FENCING,
			Prelude.HOLDER);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_FAIR = load("acquire-fair.lua", List.class, Prelude.TIME, Prelude.PUBLISH,
			Prelude.FENCING, Prelude.HOLDER);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_READ = load("acquire-read.lua", List.class, Prelude.TIME, Prelude.FENCING,
			Prelude.HOLDER);

	static final LockScript<Long> RELEASE_READ = load("release-read.lua", Long.class, Prelude.TIME, Prelude.PUBLISH);

	static final LockScript<Long> READ_HELD = load("read-held.lua", Long.class, Prelude.TIME);

	static final LockScript<Long> HELD = load("held.lua", Long.class);

	static final LockScript<Long> LEAVE_QUEUE = load("leave-queue.lua", Long.class, Prelude.PUBLISH);

	static final LockScript<Long> RELEASE = load("release.lua", Long.class, Prelude.PUBLISH);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> HANDOVER = load("handover.lua", List.class, Prelude.TIME, Prelude.FENCING);

	static final LockScript<Long> RENEW = load("renew.lua", Long.class, Prelude.TIME);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> RENEW_ALL = load("renew-all.lua", List.class, Prelude.TIME);

	static final LockScript<Long> RAISE_FENCE = load("raise-fence.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> INSPECT = load("inspect.lua", List.class, Prelude.TIME, Prelude.HOLDER);

	static final LockScript<Long> FORCE_RELEASE = load("force-release.lua", Long.class, Prelude.TIME, Prelude.PUBLISH);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_PERMIT = load("acquire-permit.lua", List.class, Prelude.TIME, Prelude.FENCING,
			Prelude.HOLDER);

	static final LockScript<Long> RELEASE_PERMIT = load("release-permit.lua", Long.class, Prelude.TIME,
			Prelude.PUBLISH);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> RENEW_PERMITS = load("renew-permits.lua", List.class, Prelude.TIME);

	static final LockScript<Long> PERMIT_HELD = load("permit-held.lua", Long.class, Prelude.TIME);

	static final List<LockScript<?>> ALL = List.of(ACQUIRE, ACQUIRE_FAIR, ACQUIRE_READ, RELEASE_READ, READ_HELD,
			LEAVE_QUEUE, RELEASE, HANDOVER, RENEW, RENEW_ALL, RAISE_FENCE, INSPECT, FORCE_RELEASE, ACQUIRE_PERMIT,
			RELEASE_PERMIT, RENEW_PERMITS, PERMIT_HELD, HELD);

	private LockScripts() {
	}

	/**
	 * Load a script behind the prelude pieces it calls, in the order of {@link Prelude}
	 * whatever the order given: Lua only sees a {@code local function} defined above its
	 * call.
	 */
	private static <T> LockScript<T> load(String name, Class<T> resultType, Prelude... prelude) {
		EnumSet<Prelude> pieces = EnumSet.noneOf(Prelude.class);
		Collections.addAll(pieces, prelude);
		StringBuilder text = new StringBuilder();
		for (Prelude piece : pieces) {
			text.append(read(piece.file())).append('\n');
		}
		return new LockScript<>(text.append(read(name)).toString(), resultType);
	}

	private static String read(String name) {
		// Read into a String: a script made from a Resource checks the resource for
		// changes, on the class path, before every single call.
		try (InputStream script = new ClassPathResource(name, LockScripts.class).getInputStream()) {
			return StreamUtils.copyToString(script, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read lock script " + name, ex);
		}
	}

	/**
	 * The shared pieces a script is assembled from, each a file beside the scripts that
	 * defines and documents {@code local} functions, in the order they go in front of the
	 * script.
	 */
	enum Prelude {

		/**
		 * {@code server_time()} and {@code server_micros()}: the Redis clock in
		 * milliseconds and microseconds, from one {@code TIME}.
		 */
		TIME("time.lua"),

		/**
		 * {@code publish(command, channel, message)}: a release notification on
		 * {@code PUBLISH} or {@code SPUBLISH}, which never fails the script.
		 */
		PUBLISH("publish.lua"),

		/**
		 * {@code fencing_token(counter, retention, counted, now)}: the fencing-token
		 * rule, for every script that grants a lock, a read hold or a permit; its callers
		 * read the clock with {@link #TIME}.
		 */
		FENCING("fencing.lua"),

		HOLDER("holder.lua");

		private final String file;

		Prelude(String file) {
			this.file = file;
		}

		/**
		 * Return the name of the piece's file, beside {@link LockScripts}.
		 */
		String file() {
			return this.file;
		}

	}

}
