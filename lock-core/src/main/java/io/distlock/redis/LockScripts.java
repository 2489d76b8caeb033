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
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.util.StreamUtils;

/**
 * The Lua scripts of the lock store, loaded once from the files beside this class. Spring
 * Data Redis's connection runs them with EVALSHA, falling back to EVAL when Redis does
 * not know them: see {@link LockScript}.
 */
final class LockScripts {

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE = loadGranting("acquire.lua", List.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_FAIR = loadGranting("acquire-fair.lua", List.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_READ = loadGranting("acquire-read.lua", List.class);

	static final LockScript<Long> RELEASE_READ = load("release-read.lua", Long.class);

	static final LockScript<Long> READ_HELD = load("read-held.lua", Long.class);

	static final LockScript<Long> HELD = load("held.lua", Long.class);

	static final LockScript<Long> LEAVE_QUEUE = load("leave-queue.lua", Long.class);

	static final LockScript<Long> RELEASE = load("release.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> HANDOVER = loadGranting("handover.lua", List.class);

	static final LockScript<Long> RENEW = load("renew.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> RENEW_ALL = load("renew-all.lua", List.class);

	static final LockScript<Long> RAISE_FENCE = load("raise-fence.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> INSPECT = load("inspect.lua", List.class);

	static final LockScript<Long> FORCE_RELEASE = load("force-release.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> ACQUIRE_PERMIT = loadGranting("acquire-permit.lua", List.class);

	static final LockScript<Long> RELEASE_PERMIT = load("release-permit.lua", Long.class);

	@SuppressWarnings("rawtypes")
	static final LockScript<List> RENEW_PERMITS = load("renew-permits.lua", List.class);

	static final LockScript<Long> PERMIT_HELD = load("permit-held.lua", Long.class);

	static final List<LockScript<?>> ALL = List.of(ACQUIRE, ACQUIRE_FAIR, ACQUIRE_READ, RELEASE_READ, READ_HELD,
			LEAVE_QUEUE, RELEASE, HANDOVER, RENEW, RENEW_ALL, RAISE_FENCE, INSPECT, FORCE_RELEASE, ACQUIRE_PERMIT,
			RELEASE_PERMIT, RENEW_PERMITS, PERMIT_HELD, HELD);

	private LockScripts() {
	}

	private static <T> LockScript<T> load(String name, Class<T> resultType) {
		return new LockScript<>(read(name), resultType);
	}

	/**
	 * Load a script that grants locks, read holds or permits, behind the fencing-token
	 * rule it calls ({@code fencing.lua}), so that the rule has one home.
	 */
	private static <T> LockScript<T> loadGranting(String name, Class<T> resultType) {
		return new LockScript<>(read("fencing.lua") + "\n" + read(name), resultType);
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

}
