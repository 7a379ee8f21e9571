//go:build windows

package uci

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The engine runs in a job object of its own, made to kill every process
// in it when its last handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
// Only the proxy holds that handle, so however the proxy ends (quit, a
// crash, a GUI's TerminateProcess) Windows ends the engine and every
// process the engine started, as the process group and the parent-death
// signal do on Linux. Without it an engine that ignores the end of its
// input, or a helper process it started, lived on.

var (
	jobsMu sync.Mutex
	jobs   = map[*exec.Cmd]windows.Handle{} // each running engine's job
)

func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// Suspended until it is in its job, so that nothing it starts at once
	// escapes the job.
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
}

// startCommand starts the engine suspended, puts it in a new job and lets
// it run. Should the job fail (an old Windows that does not nest jobs,
// when the GUI runs us in one), the engine runs without it and Kill ends
// the engine alone.
func startCommand(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := uint32(cmd.Process.Pid)
	if job, err := newKillOnCloseJob(pid); err == nil {
		jobsMu.Lock()
		jobs[cmd] = job
		jobsMu.Unlock()
	}
	if err := resumeProcess(pid); err != nil {
		killGroup(cmd)
		cmd.Wait()
		return os.NewSyscallError("ResumeThread", err)
	}
	return nil
}

func newKillOnCloseJob(pid uint32) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err == nil {
		var proc windows.Handle
		proc, err = windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
		if err == nil {
			err = windows.AssignProcessToJobObject(job, proc)
			windows.CloseHandle(proc)
		}
	}
	if err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// resumeProcess resumes the threads of a process started suspended (it
// has one: its main thread).
func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := false
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed = true
	}
	if !resumed {
		return windows.ERROR_INVALID_THREAD_ID
	}
	return nil
}

// killGroup ends the engine's job (the engine and all it started) and
// closes it; without a job, the engine alone.
func killGroup(cmd *exec.Cmd) {
	jobsMu.Lock()
	job, ok := jobs[cmd]
	delete(jobs, cmd)
	jobsMu.Unlock()
	if ok {
		windows.TerminateJobObject(job, 1)
		windows.CloseHandle(job)
	}
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// GrowPipe does nothing here: only Linux lets a pipe be enlarged.
func GrowPipe(*os.File) {}

// outputPipe is os.Pipe: the proxy reads the engine's output from a
// goroutine here.
func outputPipe() (r, w *os.File, fd int, err error) {
	r, w, err = os.Pipe()
	return r, w, -1, err
}

var pipeSerial atomic.Uint64

// inputPipe is the engine's input: a named pipe whose end we write is
// opened for overlapped I/O, so Go's poller serves it and a write
// deadline works (WriteTimeout). On an anonymous pipe (os.Pipe) a write
// to an engine that stopped reading blocked for ever, and with it the
// proxy. The engine's end is an ordinary synchronous handle, as programs
// expect of their standard input.
func inputPipe() (r, w *os.File, err error) {
	name, err := windows.UTF16PtrFromString(fmt.Sprintf(`\\.\pipe\polyproxy-engine-input-%d-%d`, os.Getpid(), pipeSerial.Add(1)))
	if err != nil {
		return nil, nil, err
	}
	wh, err := windows.CreateNamedPipe(name,
		windows.PIPE_ACCESS_OUTBOUND|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, 64<<10, 64<<10, 0, nil)
	if err != nil {
		return nil, nil, os.NewSyscallError("CreateNamedPipe", err)
	}
	rh, err := windows.CreateFile(name, windows.GENERIC_READ, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		windows.CloseHandle(wh)
		return nil, nil, os.NewSyscallError("CreateFile", err)
	}
	// os.NewFile sees that wh is overlapped and gives it to the poller.
	return os.NewFile(uintptr(rh), "|0"), os.NewFile(uintptr(wh), "|1"), nil
}
