# fslab prep (Windows): NTFS on disk 1 (database) and disk 2 (log), mounted on
# @OUT@\mnt\db\ and @OUT@\mnt\log\.  Run as Administrator.  fslab.exe prep runs it
# itself; with --dry-run it only prints it.  A failure or Ctrl-C undoes what it made.
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
Import-Module Storage

function Get-FslabDisk([int]$Number) {
    $d = Get-Disk -Number $Number -ErrorAction SilentlyContinue
    if (-not $d) { return }
    $parts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue | ForEach-Object {
        $v = Get-Volume -Partition $_ -ErrorAction SilentlyContinue
        [ordered]@{
            PartitionNumber = [int]$_.PartitionNumber; Type = [string]$_.Type
            Offset = [uint64]$_.Offset; Size = [uint64]$_.Size
            DriveLetter = [string]$_.DriveLetter
            AccessPaths = @($_.AccessPaths | ForEach-Object { [string]$_ })
            FileSystem = $(if ($v) { [string]$v.FileSystem } else { '' })
            FileSystemLabel = $(if ($v) { [string]$v.FileSystemLabel } else { '' })
            AllocationUnitSize = $(if ($v) { [uint64]$v.AllocationUnitSize } else { 0 })
        }
    })
    [ordered]@{
        Number = [int]$d.Number; FriendlyName = [string]$d.FriendlyName
        SerialNumber = [string]$d.SerialNumber; UniqueId = [string]$d.UniqueId
        BusType = [string]$d.BusType; Size = [uint64]$d.Size
        PartitionStyle = [int]$d.CimInstanceProperties['PartitionStyle'].Value
        IsSystem = [bool]$d.IsSystem; IsBoot = [bool]$d.IsBoot
        IsOffline = [bool]$d.IsOffline; IsReadOnly = [bool]$d.IsReadOnly
        LogicalSectorSize = [int]$d.LogicalSectorSize
        PhysicalSectorSize = [int]$d.PhysicalSectorSize
        Partitions = $parts
    }
}

$made = @()
function New-FslabVolume([int]$Number, [string]$Serial, [uint64]$Size, [bool]$Wipe,
                         [string]$Label, [string]$Path) {
    $d = Get-Disk -Number $Number
    # checked again: disk numbers can change between fslab's check and this script
    if ($d.IsSystem -or $d.IsBoot) { throw "disk $Number is the system or boot disk: refused" }
    if ([string]$d.SerialNumber -ne $Serial -or [uint64]$d.Size -ne $Size) {
        throw "disk $Number is not the disk fslab checked (serial number or size differ): run fslab prep again"
    }
    $style = [int]$d.CimInstanceProperties['PartitionStyle'].Value
    $nparts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue).Count
    if (($style -ne 0 -or $nparts -ne 0) -and -not $Wipe) {
        throw "disk $Number was initialised after fslab checked it: refused"
    }
    if ($d.IsOffline) { Set-Disk -Number $Number -IsOffline $false }
    $script:made += $Number
    if ($style -ne 0) { Clear-Disk -Number $Number -RemoveData -RemoveOEM -Confirm:$false }
    Initialize-Disk -Number $Number -PartitionStyle GPT
    $p = New-Partition -DiskNumber $Number -UseMaximumSize -Alignment 1048576
    $null = Format-Volume -Partition $p -FileSystem NTFS -AllocationUnitSize 65536 `
        -NewFileSystemLabel $Label -Confirm:$false -Force
    $null = New-Item -ItemType Directory -Force -Path $Path
    Add-PartitionAccessPath -DiskNumber $Number -PartitionNumber $p.PartitionNumber -AccessPath $Path
}

$ok = $false
try {
    if (-not (Test-Path -LiteralPath '@OUT@\mnt' -PathType Container)) {
        $null = New-Item -ItemType Directory -Path '@OUT@\mnt'
    }
    New-FslabVolume -Number 1 -Serial '6002248045A1' -Size 107374182400 -Wipe $false -Label 'fslab-db' `
        -Path '@OUT@\mnt\db\'
    New-FslabVolume -Number 2 -Serial '6002248045A2' -Size 21474836480 -Wipe $false -Label 'fslab-log' `
        -Path '@OUT@\mnt\log\'
    $ok = $true
} finally {
    if (-not $ok) {
        foreach ($n in $made) {
            Write-Warning "undoing disk ${n}: the prep did not finish"
            foreach ($p in @(Get-Partition -DiskNumber $n -ErrorAction SilentlyContinue)) {
                foreach ($a in @($p.AccessPaths)) {
                    if ($a -and $a -notmatch '^\\\\\?\\Volume') {
                        Remove-PartitionAccessPath -DiskNumber $n -PartitionNumber $p.PartitionNumber `
                            -AccessPath $a -ErrorAction SilentlyContinue
                    }
                }
            }
            Clear-Disk -Number $n -RemoveData -RemoveOEM -Confirm:$false -ErrorAction SilentlyContinue
        }
    }
}

$facts = [ordered]@{
    Windows = [string][System.Environment]::OSVersion.VersionString
    PowerShell = [string]$PSVersionTable.PSVersion
    Disks = @(@(1, 2) | ForEach-Object { Get-FslabDisk $_ })
}
'FSLAB-FACTS-BEGIN'
ConvertTo-Json -Depth 6 -Compress -InputObject $facts
'FSLAB-FACTS-END'
