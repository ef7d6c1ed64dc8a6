import { deckPdf, type Deck, type DeckSlide } from '../../scripts/slide-decks.js';

/**
 * An English operating-systems slide deck (a newcomer's trial material): slide titles as questions (`What Is a
 * Process?`), `Topic: subtitle` titles, titles with an abbreviation in brackets, a comparison table and a closing
 * slide with a reading list. Its prose is full of words that name nothing on their own (`what`, `time`, `new`,
 * `moves`, `between`, `low`, `high`) beside multi-word terms (`round robin`, `time quantum`, `context switch`).
 */
const slide = (section: string, title: string, ...lines: string[]): DeckSlide => ({ section, title, lines });

export const OS_DECK: Deck = {
  name: 'os-processes',
  korean: false,
  titleStyle: 'heading',
  slides: [
    slide('front', 'CS 350 Operating Systems', 'Lecture 5: Processes, Threads and CPU Scheduling', 'Spring 2025', 'Dr. Maria Okafor'),
    slide('front', 'Agenda', 'Processes and the process control block', 'Threads and concurrency', 'CPU scheduling algorithms', 'Context switching costs'),
    slide('process', 'What Is a Process?', 'A process is a program in execution, with its own address space.', 'The address space holds the code, data, heap and stack segments.', 'The operating system tracks each process in a process control block (PCB).'),
    slide('process', 'Process States', 'A process moves between the states new, ready, running, waiting and terminated.', 'The scheduler moves a process from ready to running.', 'A process waiting for I/O moves to the waiting state until the I/O completes.'),
    slide('process', 'The Process Control Block', 'Definition: the PCB is the kernel data structure that stores everything the OS knows about a process.', 'It holds the process ID, the saved registers, the program counter, the state and open files.', 'On a context switch the kernel saves the running process into its PCB.'),
    slide('process', 'Creating Processes: fork and exec', 'On Unix, fork() creates a child process that is a copy of the parent.', "exec() replaces the child's memory image with a new program.", "The parent calls wait() to collect the child's exit status; otherwise the child becomes a zombie."),
    slide('threads', 'Threads', 'Definition: a thread is a unit of execution inside a process.', 'Threads of one process share the address space, open files and heap.', 'Each thread has its own stack, registers and program counter.'),
    slide('threads', 'Why Use Threads?', 'Threads are cheaper to create and switch than processes.', 'They let one program use several CPU cores at once.', 'A server can handle each client request in its own thread.'),
    slide('threads', 'User-Level vs. Kernel-Level Threads', 'User-level threads are managed by a library without kernel support.', 'Kernel-level threads are scheduled by the operating system.', 'Linux uses a one-to-one model: each user thread maps to a kernel thread.'),
    slide('threads', 'Race Conditions', 'Definition: a race condition occurs when the result depends on the timing of threads that share data.', 'Example: two threads increment the same counter without a lock and an update is lost.', 'A mutex makes the critical section run in one thread at a time.'),
    slide('sched', 'CPU Scheduling Goals', 'The scheduler picks which ready process runs next on the CPU.', 'Goals: high CPU utilization, high throughput, low turnaround time, low waiting time and low response time.', 'Interactive systems care most about response time.'),
    slide('sched', 'First-Come, First-Served (FCFS)', 'FCFS runs processes in the order they arrive, without preemption.', 'It is simple but suffers from the convoy effect: short jobs wait behind a long job.'),
    slide('sched', 'Shortest Job First (SJF)', 'SJF runs the process with the shortest next CPU burst first.', 'It gives the minimum average waiting time for a given set of processes.', 'Its weakness: burst lengths must be predicted, and long jobs can starve.'),
    slide('sched', 'Round Robin (RR)', 'Round robin gives each ready process a time quantum, for example 10 ms, then preempts it.', 'A quantum that is too large behaves like FCFS; one that is too small wastes time on context switches.', 'Round robin gives good response time for interactive users.'),
    slide('sched', 'Scheduling Algorithms Compared', 'Algorithm | Preemptive | Strength | Weakness', 'FCFS | No | simple | convoy effect', 'SJF | No | minimal average waiting time | starvation', 'Round Robin | Yes | fair, good response time | context switch overhead', 'Priority | Either | important jobs first | starvation, fixed by aging'),
    slide('ctx', 'Context Switching', 'Definition: a context switch saves the state of the running process and restores the state of the next one.', 'It is pure overhead: no useful work is done during the switch.', 'Switching between threads of the same process is cheaper because the address space stays the same.'),
    slide('ctx', 'Measuring the Cost', 'A context switch typically takes a few microseconds.', 'Indirect costs are larger: caches and the TLB are cold after the switch.', 'Schedulers choose quantum lengths much larger than the switch time.'),
    slide('front', 'Summary', 'A process is a program in execution tracked by its PCB.', 'Threads share an address space but have their own stacks.', 'FCFS, SJF and round robin trade fairness, waiting time and overhead.'),
    slide('front', 'Questions?', 'Reading: OSTEP chapters 4-9', 'Next lecture: synchronization and deadlock'),
  ],
};

export const osDeckPdf = (): Promise<Uint8Array> => deckPdf(OS_DECK);
