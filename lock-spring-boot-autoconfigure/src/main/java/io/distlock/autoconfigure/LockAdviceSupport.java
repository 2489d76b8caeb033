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

package io.distlock.autoconfigure;

import java.util.function.Supplier;

import io.distlock.LockTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

/**
 * What the proxy and the aspect configurations share: the settings, read straight from
 * the {@link Environment} (their beans are created while post-processors are set up,
 * before properties beans), and the template, looked up on the first locked call.
 */
final class LockAdviceSupport {

	private LockAdviceSupport() {
	}

	static DistLockProperties properties(Environment environment) {
		return Binder.get(environment).bindOrCreate("distlock", DistLockProperties.class);
	}

	static Supplier<LockTemplate> lockTemplate(ObjectProvider<LockTemplate> lockTemplate) {
		return SingletonSupplier.of(() -> lockTemplate.getIfAvailable(() -> {
			throw new IllegalStateException("@DistributedLocked needs a LockTemplate, and there is none: configure "
					+ "Redis (spring.data.redis.*) or define a LockClient bean");
		}));
	}

}
