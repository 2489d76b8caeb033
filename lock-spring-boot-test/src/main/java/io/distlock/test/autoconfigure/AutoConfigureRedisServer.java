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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Start a real {@code redis-server} for a Spring Boot test and point
 * {@code spring.data.redis.*} at it, with no Docker: the server comes from the
 * embedded-redis jars, on a free loopback port.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureRedisServer
 * class OrderServiceIntegrationTests { ... }
 * </pre>
 *
 * <p>
 * One server is started per application context and stopped when the context is closed;
 * test classes that share a cached context share its server (and its keys: use keys of
 * your own per test, or inject the {@link io.distlock.test.RedisEndpoint RedisEndpoint}
 * bean and {@code flushAll()}). With the environment variable {@code DISTLOCK_REDIS_URL}
 * (or the system property {@code distlock.redis.url}) set, that server is used instead.
 * The properties it sets take precedence over the application's own.
 *
 * @see SpringDataRedisProperties
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureRedisServer {

}
