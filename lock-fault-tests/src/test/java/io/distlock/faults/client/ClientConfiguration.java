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

package io.distlock.faults.client;

import io.distlock.autoconfigure.DistLockAutoConfiguration;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The client application: Spring Data Redis and distlock as a user would configure them
 * (properties only), a locked bean and a listener that records lost locks.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class })
public class ClientConfiguration {

	@Bean
	LockedWork lockedWork() {
		return new LockedWork();
	}

	@Bean
	HistoryListener historyListener(HistoryWriter historyWriter, Environment environment) {
		return new HistoryListener(environment.getRequiredProperty("faults.client"), historyWriter);
	}

}
