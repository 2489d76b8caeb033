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

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Put the locks of a Spring Boot test on the in-memory lock store: the auto-configured
 * {@code LockTemplate} and every {@code @DistributedLocked} method then lock in this
 * JVM's memory, with no Redis.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;AutoConfigureInMemoryLocks
 * class OrderServiceTests { ... }
 * </pre>
 *
 * <p>
 * The store is configured only for a test class that carries this annotation (or a
 * meta-annotation of it): its auto-configuration is not listed in
 * {@code AutoConfiguration.imports}, so {@code @EnableAutoConfiguration} never picks it
 * up, and its artifact, {@code lock-spring-boot-test}, is meant for test scope. An
 * application therefore cannot end up with in-memory locks in production, where they
 * would exclude nothing across instances. A {@code LockClient} bean the test defines
 * itself takes precedence.
 *
 * @see InMemoryLockAutoConfiguration
 * @see io.distlock.test.memory.InMemoryLockClient
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(InMemoryLockAutoConfiguration.class)
public @interface AutoConfigureInMemoryLocks {

}
