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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The main class of a client JVM. It starts the client application, prints
 * {@value #READY}, waits for {@code go} on its standard input, runs its workers for the
 * configured duration, prints {@value #DONE} once every worker stopped and every lock was
 * given back, and exits when its standard input closes. It also exits, at once, when its
 * standard input closes early or its parent process dies, so that no client outlives the
 * test.
 */
public final class FaultClient {

	/**
	 * Printed once the application started.
	 */
	public static final String READY = "FAULT-CLIENT READY";

	// Enough distinct keys to reach every primary of the scenarios' 3-primary cluster.
	private static final int WARM_UP_KEYS = 12;

	/**
	 * Printed once every worker stopped.
	 */
	public static final String DONE = "FAULT-CLIENT DONE";

	private FaultClient() {
	}

	/**
	 * Run a client.
	 * @param args the {@link ClientSettings} as {@code name=value} arguments
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void main(String[] args) throws InterruptedException {
		ClientSettings settings = ClientSettings.parse(args);
		Control control = new Control();
		control.start();
		HistoryWriter history = HistoryWriter.create(settings.history());
		SpringApplication application = new SpringApplication(ClientConfiguration.class);
		application.setBannerMode(Banner.Mode.OFF);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setLogStartupInfo(false);
		application.setDefaultProperties(settings.springProperties());
		application.addInitializers((context) -> context.getBeanFactory().registerSingleton("historyWriter", history));
		ConfigurableApplicationContext context = application.run();
		LockTemplate template = context.getBean(LockTemplate.class);
		LockedWork lockedWork = context.getBean(LockedWork.class);
		HistoryListener listener = context.getBean(HistoryListener.class);
		warmUp(template, settings);
		System.out.println(READY);
		System.out.flush();
		control.go.await();
		long deadline = System.nanoTime() + settings.duration().toNanos();
		history.event("start", "c", settings.id(), "ns", System.nanoTime(), "pid", ProcessHandle.current().pid());
		StallRecorder.start(settings.id(), history);
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < settings.threads(); i++) {
			Thread worker = new Thread(new Worker(settings, i, template, lockedWork, listener, history, deadline),
					settings.id() + "-worker-" + i);
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		history.event("done", "c", settings.id(), "ns", System.nanoTime());
		control.done = true;
		System.out.println(DONE);
		System.out.flush();
		control.exit.await();
		context.close();
		history.close();
		System.exit(0);
	}

	/**
	 * Take and release a few locks outside the workload's keys before reporting ready.
	 * The first lock calls of a cold JVM load the classes on the lock path and open the
	 * connections (on a cluster, one per node it reaches): with three clients starting at
	 * once on a loaded 2-core machine, that took 1-2 s, which the late-waiter check then
	 * counted against the first attempts' wait time. The scenarios measure the library
	 * under faults, not the start of a JVM.
	 */
	private static void warmUp(LockTemplate template, ClientSettings settings) {
		for (int i = 0; i < WARM_UP_KEYS; i++) {
			try {
				template.tryAcquire("warm-up-" + settings.id() + "-" + i, settings.ttl(), Duration.ofSeconds(5))
					.ifPresent(LockHandle::close);
			}
			catch (RuntimeException ex) {
				// A fault scenario may start on a topology still settling: the workers
				// will meet it again.
				System.err.println("Warm-up lock failed: " + ex);
			}
		}
	}

	/**
	 * Reads the parent's commands from standard input and watches the parent process.
	 */
	private static final class Control {

		private final CountDownLatch go = new CountDownLatch(1);

		private final CountDownLatch exit = new CountDownLatch(1);

		private volatile boolean done;

		void start() {
			Thread input = new Thread(this::readInput, "fault-client-input");
			input.setDaemon(true);
			input.start();
			Thread parent = new Thread(this::watchParent, "fault-client-parent-watch");
			parent.setDaemon(true);
			parent.start();
		}

		private void readInput() {
			try (BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
				String line;
				while ((line = reader.readLine()) != null) {
					if ("go".equals(line.strip())) {
						this.go.countDown();
					}
				}
			}
			catch (IOException ex) {
				// Same as the end of the input.
			}
			if (this.done) {
				this.exit.countDown();
			}
			else {
				// The parent closed the input early or died: stop now.
				Runtime.getRuntime().halt(3);
			}
		}

		private void watchParent() {
			ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
			while (parent != null && parent.isAlive()) {
				try {
					TimeUnit.MILLISECONDS.sleep(500);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
			Runtime.getRuntime().halt(4);
		}

	}

}
