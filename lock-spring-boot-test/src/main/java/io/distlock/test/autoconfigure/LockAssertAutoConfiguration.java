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

package io.distlock.test.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.distlock.LockListener;
import io.distlock.LockTemplate;
import io.distlock.test.assertion.LockAssert;

/**
 * Auto-configuration that registers {@link LockAssert#listener()} with the
 * auto-configured {@code LockTemplate}, so that
 * {@code LockAssert.assertThatLock(key).isHeldDuring(call)} sees the locks a call takes.
 * It adds a listener and nothing else, so it is listed for every test that has
 * {@code lock-spring-boot-test} on its class path.
 */
@AutoConfiguration
@ConditionalOnClass(LockTemplate.class)
public final class LockAssertAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "lockAssertListener")
	LockListener lockAssertListener() {
		return LockAssert.listener();
	}

}
