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

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Keeps the lock store's Lua scripts in a native image: {@link LockScripts} reads them
 * from the class path, which a native image only holds for the resources it was told of.
 * Declared in {@code META-INF/spring/aot.factories}, so any application with distlock on
 * its class path gets it, with or without the auto-configuration.
 */
class LockScriptsRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		// A pattern rather than a list: a script added later is covered without a change
		// here.
		hints.resources().registerPattern("io/distlock/redis/*.lua");
	}

}
