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

package io.distlock.sample.demo.node;

import io.distlock.sample.SampleApplication;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * One node of the demo: the sample shop's own {@link SampleApplication}, unchanged, plus
 * a watch on the demo's process so that the node never outlives the demo.
 * <p>
 * It reads two settings the demo passes: {@code --demo.parent-pid}, the process whose end
 * ends this node, and {@code --demo.shutdown-redis-with-parent}, whether this node then
 * also shuts down the Redis it uses (the demo's embedded one, which the demo, gone, can
 * no longer stop itself).
 */
public final class DemoNode {

	private DemoNode() {
	}

	/**
	 * Run a node of the shop.
	 * @param args the shop's command-line arguments, with the {@code demo.*} settings
	 */
	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(SampleApplication.class);
		application.addInitializers(DemoNode::watchParent);
		application.run(args);
	}

	private static void watchParent(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		Long parentPid = environment.getProperty("demo.parent-pid", Long.class);
		if (parentPid != null) {
			boolean shutdownRedis = environment.getProperty("demo.shutdown-redis-with-parent", Boolean.class, false);
			// Started before the context refreshes: a parent that dies while this node
			// starts still ends it. Redis is looked up only when the parent has ended.
			new ParentProcessWatcher(parentPid, shutdownRedis,
					context.getBeanFactory().getBeanProvider(RedisConnectionFactory.class));
		}
	}

}
